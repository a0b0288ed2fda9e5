/**
 * Compiling the x-kubernetes-validations of one schema node (kube's cel.Compile): each rule and
 * its messageExpression against `self` and `oldSelf` typed by the node's schema, with kube's error
 * texts ("compilation failed: ERROR: <input>:1:5: ...", "cel expression must evaluate to a bool",
 * "messageExpression must evaluate to a string"), whether it is a transition rule, its normalized
 * fieldPath and its estimated worst-case cost. Compiled once per CRD version; the programs are
 * stateless.
 */
import { estimateCost, toSchemaType, type CostEstimate, type StaticType } from '../../cel/cost-estimate.js';
import { CelCompileError, compileExpression, perCallLimit, type CompiledExpression } from '../../cel/expression.js';
import { schemaCheck } from '../../cel/schema-check.js';
import type { JSONSchemaProps, ValidationRule } from '../interface.js';
import { validFieldPath } from './field-path.js';
import type { CompiledRule, DeclType } from './interface.js';

/** The variables every rule may reference. */
export const ruleVariables: readonly string[] = ['self', 'oldSelf'];

const notOf = (t: StaticType, kind: string): boolean => t.kind !== kind && t.kind !== 'dyn';

interface Checked {
  readonly program?: CompiledExpression;
  readonly error?: string;
  readonly type?: StaticType;
  readonly cost: number;
  readonly references: ReadonlySet<string>;
}

function check(expression: string, vars: ReadonlyMap<string, StaticType>): Checked {
  let program: CompiledExpression;
  try {
    program = compileExpression(expression, { variables: ruleVariables, costLimit: perCallLimit });
  } catch (err) {
    if (err instanceof CelCompileError) return { error: err.message, cost: 0, references: new Set() };
    throw err;
  }
  const issues = schemaCheck(expression, new Map([...vars].map(([k, v]) => [k, toSchemaType(v)])));
  if (issues.length > 0) return { error: issues.join('\n'), cost: 0, references: new Set() };
  const est = estimate(expression, vars);
  return { program, type: est.type, cost: est.cost, references: est.references };
}

function estimate(expression: string, vars: ReadonlyMap<string, StaticType>): CostEstimate {
  try {
    return estimateCost(expression, vars);
  } catch {
    // The expression compiled, so the estimator cannot fail to parse it; if it does, it proves nothing.
    return { cost: 0, type: { kind: 'dyn' }, references: new Set(/\boldSelf\b/.test(expression) ? ['oldSelf'] : []) };
  }
}

/** Compiles rules of a node whose schema is nodeSchema and whose CEL type is decl. */
export function compileRules(rules: readonly ValidationRule[], nodeSchema: JSONSchemaProps, decl: DeclType): CompiledRule[] {
  return rules.map((rule) => compileRule(rule, nodeSchema, decl));
}

function compileRule(rule: ValidationRule, nodeSchema: JSONSchemaProps, decl: DeclType): CompiledRule {
  const empty = { rule, usesOldSelf: false, normalizedFieldPath: '', maxCost: 0, messageExpressionMaxCost: 0 };
  if ((rule.rule ?? '').trim() === '') return empty;
  const plain = new Map<string, StaticType>([['self', decl], ['oldSelf', decl]]);
  const vars = rule.optionalOldSelf ? new Map<string, StaticType>([['self', decl], ['oldSelf', { kind: 'optional', elem: decl }]]) : plain;
  const r = check(rule.rule, vars);
  if (r.error !== undefined) return { ...empty, error: { detail: `compilation failed: ${r.error}` } };
  if (r.type && notOf(r.type, 'bool')) return { ...empty, error: { detail: 'cel expression must evaluate to a bool' } };
  let normalizedFieldPath = '';
  if (rule.fieldPath) {
    const fp = validFieldPath(rule.fieldPath, nodeSchema);
    if ('path' in fp) normalizedFieldPath = fp.path;
  }
  const out = { ...empty, program: r.program, usesOldSelf: r.references.has('oldSelf'), normalizedFieldPath, maxCost: r.cost };
  if (!rule.messageExpression || rule.messageExpression.trim() === '') return out;
  const m = check(rule.messageExpression, plain);
  if (m.error !== undefined) return { ...out, messageExpressionError: `messageExpression compilation failed: ${m.error}` };
  if (m.type && notOf(m.type, 'string')) return { ...out, messageExpressionError: 'messageExpression must evaluate to a string' };
  return { ...out, messageExpression: m.program, messageExpressionMaxCost: m.cost };
}
