/**
 * A ValidatingAdmissionPolicy compiled once per generation: its match constraints, matchConditions,
 * variables, validations (with messageExpression) and auditAnnotations as CEL programs. An
 * expression that does not compile is kept as its error, reported when the policy is evaluated
 * ("compilation error: ..."), as kube reports it.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { CelCompileError, compileExpression, type CompiledExpression } from '../../../cel/expression.js';
import { admissionPolicyMessageVariables, admissionPolicyVariables } from '../../../cel/variables.js';
import { compileMatch, type CompiledMatch } from './match.js';

const policyVariables = admissionPolicyVariables;
const messageVariables = admissionPolicyMessageVariables;

/** A compiled expression, or why it did not compile. */
export type Program = { readonly expression: string; readonly program: CompiledExpression; readonly error?: undefined } | { readonly expression: string; readonly program?: undefined; readonly error: string };

/** Compiles one expression, keeping a compile error as data. */
export function program(expression: string, variables: readonly string[]): Program {
  try {
    return { expression, program: compileExpression(expression, { variables }) };
  } catch (err) {
    if (err instanceof CelCompileError) return { expression, error: err.message };
    throw err;
  }
}

/** One validation. */
export interface CompiledValidation {
  readonly check: Program;
  readonly message: string;
  readonly messageExpression: Program | undefined;
  readonly reason: string | undefined;
}

/** A compiled policy. */
export interface CompiledPolicy {
  readonly name: string;
  readonly policy: KubeObject;
  readonly failurePolicy: string;
  readonly match: CompiledMatch | undefined;
  /** Set when the policy cannot be applied at all (a bad selector). */
  readonly configError: string | undefined;
  readonly paramKind: { readonly apiVersion: string; readonly kind: string } | undefined;
  readonly matchConditions: readonly { readonly name: string; readonly check: Program }[];
  readonly variables: readonly { readonly name: string; readonly value: Program }[];
  readonly validations: readonly CompiledValidation[];
  readonly auditAnnotations: readonly { readonly key: string; readonly value: Program }[];
}

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Compiles policy (never throws). */
export function compilePolicy(policy: KubeObject): CompiledPolicy {
  const spec = (policy.spec ?? {}) as Json;
  let match: CompiledMatch | undefined;
  let configError: string | undefined;
  try {
    match = compileMatch(spec.matchConstraints as Json | undefined, false);
  } catch (err) {
    configError = (err as Error).message;
  }
  const pk = spec.paramKind as Json | undefined;
  return {
    name: policy.metadata.name ?? '',
    policy,
    failurePolicy: str(spec.failurePolicy) || 'Fail',
    match,
    configError,
    paramKind: pk ? { apiVersion: str(pk.apiVersion), kind: str(pk.kind) } : undefined,
    matchConditions: list(spec.matchConditions).map((c) => ({ name: str(c.name), check: program(str(c.expression), policyVariables) })),
    variables: list(spec.variables).map((v) => ({ name: str(v.name), value: program(str(v.expression), policyVariables) })),
    validations: list(spec.validations).map((v) => ({
      check: program(str(v.expression), policyVariables),
      message: str(v.message),
      messageExpression: v.messageExpression ? program(str(v.messageExpression), messageVariables) : undefined,
      reason: str(v.reason) || undefined,
    })),
    auditAnnotations: list(spec.auditAnnotations).map((a) => ({ key: str(a.key), value: program(str(a.valueExpression), policyVariables) })),
  };
}
