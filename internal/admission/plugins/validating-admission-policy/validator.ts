/**
 * One policy evaluated for one binding and one param (kube's validator.Validate): matchConditions
 * first, then every validation under the policy's runtime cost budget, messageExpression for those
 * that fail, and the audit annotations, giving decisions the dispatcher turns into denials,
 * warnings and audit annotations.
 */
import { CelEvaluationError, runtimeCelCostBudget, type AuthzBinding, type CelActivation, type EvaluateOptions } from '../../../cel/expression.js';
import { perCallLimit } from '../../../cel/expression.js';
import type { CompiledPolicy, Program } from './compile.js';
import { LazyVariables } from './variables.js';

/** kube's metric error types. */
export type ErrorType = 'no_error' | 'compile_error' | 'invalid_error' | 'out_of_budget';

/** One validation's outcome. */
export interface Decision {
  readonly action: 'admit' | 'deny';
  readonly message: string;
  readonly reason: string;
  readonly errorType: ErrorType;
  readonly elapsed: number;
  /** The validation's index (-1 for errors that are not one validation's). */
  readonly index: number;
}

/** An audit annotation's outcome. */
export interface AuditAnnotationResult {
  readonly key: string;
  readonly value?: string;
  readonly error?: string;
  readonly elapsed: number;
}

/** Everything one evaluation produced. */
export interface ValidateResult {
  readonly decisions: readonly Decision[];
  readonly auditAnnotations: readonly AuditAnnotationResult[];
}

const outOfBudget = 'validation failed due to running out of cost budget, no further validation rules will be run';
const maxMessageLength = 5 * 1024;

class OutOfBudget extends Error {}

/** Evaluates programs under one budget, kube's messages for failures. */
class Runner {
  remaining = runtimeCelCostBudget;

  constructor(
    private readonly activation: CelActivation,
    private readonly authz: AuthzBinding,
    private readonly variables: LazyVariables,
  ) {}

  async run(p: Program, withAuthz = true): Promise<{ value?: unknown; error?: string; errorType: ErrorType; elapsed: number }> {
    const start = performance.now();
    if (p.error !== undefined) return { error: `compilation error: ${p.error}`, errorType: 'compile_error', elapsed: 0 };
    const limit = Math.min(perCallLimit, this.remaining);
    const options: EvaluateOptions = { costLimit: limit, ...(withAuthz ? { authz: this.authz } : {}) };
    try {
      const r = await p.program.evaluateAsync(this.activation, options);
      this.remaining -= r.cost;
      return { value: r.value, errorType: 'no_error', elapsed: (performance.now() - start) / 1000 };
    } catch (err) {
      if (!(err instanceof CelEvaluationError)) throw err;
      if (err.costExceeded && limit < perCallLimit) throw new OutOfBudget(outOfBudget);
      return {
        error: `expression '${p.expression}' resulted in error: ${err.message}`,
        errorType: err.costExceeded ? 'out_of_budget' : 'invalid_error',
        elapsed: (performance.now() - start) / 1000,
      };
    }
  }

  /** The variables map of this evaluation (its entries evaluate with these options). */
  get vars(): LazyVariables {
    return this.variables;
  }
}

/** Evaluates policy against one activation (object, oldObject, request, params, namespaceObject, authorizer). */
export async function validate(policy: CompiledPolicy, base: CelActivation, authz: AuthzBinding): Promise<ValidateResult> {
  const fail = policy.failurePolicy !== 'Ignore';
  const errorDecision = (message: string, errorType: ErrorType, elapsed = 0, index = -1): Decision => ({
    action: fail ? 'deny' : 'admit',
    message,
    reason: '',
    errorType,
    elapsed,
    index,
  });
  const variables = new LazyVariables(policy.variables, { authz, costLimit: perCallLimit });
  const activation = { ...base, variables };
  variables.activation = activation;
  const runner = new Runner(activation, authz, variables);
  try {
    // matchConditions: any false means the policy does not apply; errors count only when none is false.
    let matchError: string | undefined;
    for (const c of policy.matchConditions) {
      const r = await runner.run(c.check);
      if (r.error !== undefined) matchError ??= r.error;
      else if (r.value !== true) return { decisions: [], auditAnnotations: [] };
    }
    if (matchError !== undefined) return { decisions: [errorDecision(matchError, 'invalid_error')], auditAnnotations: [] };

    const decisions: Decision[] = [];
    for (const [i, v] of policy.validations.entries()) {
      const r = await runner.run(v.check);
      if (r.error !== undefined) {
        decisions.push(errorDecision(r.error, r.errorType, r.elapsed, i));
        continue;
      }
      if (r.value === true) {
        decisions.push({ action: 'admit', message: '', reason: '', errorType: 'no_error', elapsed: r.elapsed, index: i });
        continue;
      }
      let message = '';
      if (v.messageExpression) {
        const m = await runner.run(v.messageExpression, false);
        if (typeof m.value === 'string') {
          message = m.value.trim();
          if (message.length > maxMessageLength || message.includes('\n')) message = '';
        }
      }
      if (!message) message = v.message.trim();
      if (!message) message = `failed expression: ${v.check.expression.trim()}`;
      decisions.push({ action: 'deny', message, reason: v.reason ?? 'Invalid', errorType: 'no_error', elapsed: r.elapsed, index: i });
    }

    const auditAnnotations: AuditAnnotationResult[] = [];
    for (const a of policy.auditAnnotations) {
      const r = await runner.run(a.value);
      if (r.error !== undefined) {
        if (fail) auditAnnotations.push({ key: a.key, error: r.error, elapsed: r.elapsed });
      } else if (typeof r.value === 'string') {
        const value = r.value.trim();
        if (value) auditAnnotations.push({ key: a.key, value, elapsed: r.elapsed });
      } else if (r.value !== null) {
        const type = typeof r.value === 'bigint' ? 'int' : typeof r.value === 'number' ? 'double' : typeof r.value === 'boolean' ? 'bool' : Array.isArray(r.value) ? 'list' : 'map';
        if (fail) auditAnnotations.push({ key: a.key, error: `valueExpression '${a.value.expression}' resulted in unsupported return type: ${type}. Return type must be either string or null.`, elapsed: r.elapsed });
      }
    }
    return { decisions, auditAnnotations };
  } catch (err) {
    if (err instanceof OutOfBudget) return { decisions: [errorDecision(err.message, 'out_of_budget')], auditAnnotations: [] };
    throw err;
  }
}
