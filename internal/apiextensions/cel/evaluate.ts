/**
 * Evaluating the rules of one node against one value (kube's validateExpressions): transition
 * rules only where an old value correlates (or always, with optionalOldSelf, oldSelf then being an
 * optional), each under kube's per-call limit and the remaining budget, and a failed rule reported
 * with its message, messageExpression result or "failed rule: <rule>", at its fieldPath, as the
 * FieldError its reason names. Errors of an unchanged value are ratcheted away (kube turns them
 * into warnings) unless the rule is a transition rule.
 */
import { CelEvaluationError, optionalInput, PreparedCelInput, type CelActivation, type CompiledExpression } from '../../cel/expression.js';
import { childPath, duplicate, forbidden, goQuote, invalid, required, type FieldError, type FieldPath } from '../../validation/field-error.js';
import type { ValidationRule } from '../interface.js';
import { shouldRatchet } from './correlation.js';
import type { Ratcheting, ValidatorNode, WalkState } from './interface.js';
import { celInputOf } from './values.js';

/** kube's celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
export const maxEvaluatedMessageExpressionSizeBytes = 5 * 1024;
const outOfBudget = 'validation failed due to running out of cost budget, no further validation rules will be run';

/** kube's ruleErrorString: the message if there is one, else the rule. */
function ruleErrorString(rule: ValidationRule): string {
  return rule.message ? rule.message.trim() : rule.rule.trim();
}

/** kube's ruleMessageOrDefault. */
export function ruleMessageOrDefault(rule: ValidationRule): string {
  return rule.message ? rule.message.trim() : `failed rule: ${ruleErrorString(rule)}`;
}

/** kube's fieldErrorForReason: the error a failed rule's reason names. */
export function fieldErrorForReason(path: FieldPath, typeName: string, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbidden(path, detail);
    case 'FieldValueRequired':
      return required(path, detail);
    case 'FieldValueDuplicate':
      return duplicate(path, typeName);
    default:
      return invalid(path, typeName, detail);
  }
}

type Outcome = { readonly value: unknown; readonly cost: number } | { readonly error: CelEvaluationError | Error };

function run(program: CompiledExpression, activation: CelActivation, costLimit: number): Outcome {
  try {
    return program.evaluateValue(activation, { costLimit });
  } catch (err) {
    return { error: err as Error };
  }
}

type MessageResult = { readonly message: string } | { readonly fatal: FieldError } | { readonly fallback: true };

function evalMessageExpression(program: CompiledExpression, source: string, activation: CelActivation, path: FieldPath, typeName: string, state: WalkState): MessageResult {
  const r = run(program, activation, state.perCallLimit);
  if ('error' in r) {
    if (r.error instanceof CelEvaluationError && r.error.costExceeded) {
      return { fatal: invalid(path, typeName, `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(source)}`) };
    }
    return { fallback: true };
  }
  if (r.cost > state.budget) return { fatal: invalid(path, typeName, 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run') };
  state.budget -= r.cost;
  if (typeof r.value !== 'string') return { fallback: true };
  const msg = r.value.trim();
  if (Buffer.byteLength(msg) > maxEvaluatedMessageExpressionSizeBytes || /\n/.test(msg) || msg.length === 0) return { fallback: true };
  return { message: msg };
}

/** Evaluates n's rules on value; false when evaluation must stop (budget or per-call limit). */
export function evaluateRules(n: ValidatorNode, path: FieldPath, value: unknown, old: unknown, ratchet: Ratcheting, state: WalkState): boolean {
  const typeName = n.schema.type ?? '';
  if (n.compileError) {
    state.errors.push(invalid(path, typeName, `rule compiler initialization error: ${n.compileError}`));
    return true;
  }
  if (n.rules.length === 0) return true;
  if (state.budget <= 0) {
    state.errors.push(invalid(path, typeName, outOfBudget));
    state.budget = -1;
    return false;
  }
  const self = celInputOf(value, n.decl);
  const activation: Record<string, unknown> = { self: new PreparedCelInput(self) };
  if (n.usesOldSelf && old !== undefined) activation.oldSelf = new PreparedCelInput(celInputOf(old, n.decl));
  let optionalActivation: CelActivation | undefined;
  for (const compiled of n.rules) {
    const rule = compiled.rule;
    if (compiled.error) {
      state.errors.push(invalid(path, typeName, `rule compile error: ${compiled.error.detail}`));
      continue;
    }
    if (!compiled.program) continue;
    const optionalOldSelf = rule.optionalOldSelf === true;
    // Transition rules run only where an old value correlates, unless oldSelf is optional.
    if (compiled.usesOldSelf && old === undefined && !optionalOldSelf) continue;
    let ruleActivation: CelActivation = activation;
    if (optionalOldSelf) {
      optionalActivation ??= { self: activation.self, oldSelf: new PreparedCelInput(optionalInput(old === undefined ? undefined : celInputOf(old, n.decl))) };
      ruleActivation = optionalActivation;
    }
    const r = run(compiled.program, ruleActivation, state.perCallLimit);
    if ('error' in r) {
      const msg = r.error.message;
      if (r.error instanceof CelEvaluationError && r.error.costExceeded) {
        state.errors.push(invalid(path, typeName, `'${msg}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`));
        state.budget = -1;
        return false;
      }
      if (msg.startsWith('no such overload') || msg.startsWith('found no matching overload')) {
        // cel-go's runtime dispatch failure carries no detail.
        state.errors.push(invalid(path, typeName, `'no such overload': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`));
      } else {
        state.errors.push(invalid(path, typeName, `${msg} evaluating rule: ${ruleErrorString(rule)}`));
      }
      continue;
    }
    if (r.cost > state.budget) {
      state.errors.push(invalid(path, typeName, outOfBudget));
      state.budget = -1;
      return false;
    }
    state.budget -= r.cost;
    if (r.value === true) continue;

    const errPath = compiled.normalizedFieldPath ? childPath(path, compiled.normalizedFieldPath) : path;
    const ratcheted = !compiled.usesOldSelf && shouldRatchet(ratchet);
    const add = (e: FieldError) => {
      if (!ratcheted) state.errors.push(e);
    };
    let detail: string | undefined;
    if (compiled.messageExpression) {
      const m = evalMessageExpression(compiled.messageExpression, rule.messageExpression ?? '', activation, errPath, typeName, state);
      if ('fatal' in m) {
        add(m.fatal);
        state.budget = -1;
        return false;
      }
      if ('message' in m) detail = m.message;
    }
    add(fieldErrorForReason(errPath, typeName, detail ?? ruleMessageOrDefault(rule), rule.reason));
  }
  return true;
}
