/**
 * CEL expressions as Kubernetes uses them (admission matchConditions, ValidatingAdmissionPolicy,
 * MutatingAdmissionPolicy, CRD x-kubernetes-validations), on @bufbuild/cel. An expression is
 * compiled once (parse + plan) and evaluated per request against an activation of JSON values.
 *
 * This is the shared entry point: callers import compileExpression / CelCompileError /
 * CelEvaluationError from here and never touch @bufbuild/cel directly.
 */
import { celEnv, isCelError, isCelList, isCelMap, parse, plan, type CelInput, type CelValue } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

/** Variable values by name; JSON values (objects, arrays, strings, numbers, booleans, null). */
export type CelActivation = Readonly<Record<string, unknown>>;

/** The expression does not compile (syntax, undeclared reference, type error). */
export class CelCompileError extends Error {}

/** Evaluation failed (no such key, no matching overload, cost limit, ...). */
export class CelEvaluationError extends Error {}

/** A compiled expression. */
export interface CompiledExpression {
  readonly expression: string;
  /** The result converted to JS (boolean, string, number, bigint, arrays, plain objects, null); throws CelEvaluationError. */
  evaluate(activation: CelActivation): unknown;
}

/** What an expression may reference. */
export interface CompileOptions {
  /** The variables it may use (object, oldObject, request, params, authorizer, variables, self, ...). */
  readonly variables: readonly string[];
}

/** JSON to CEL input: objects become maps, integral numbers ints (bigint), as Kubernetes' CEL does for JSON. */
export function toCel(value: unknown): CelInput {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') return value;
  if (Array.isArray(value)) return value.map(toCel);
  if (value instanceof Map || value instanceof Uint8Array) return value as CelInput;
  if (typeof value === 'object') {
    const m = new Map<string, CelInput>();
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) m.set(k, toCel(v));
    return m;
  }
  return null;
}

/** A CEL value back to JS. */
export function fromCel(value: CelValue): unknown {
  if (isCelList(value)) return [...value].map((v) => fromCel(v));
  if (isCelMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[String(k)] = fromCel(v);
    return out;
  }
  return value;
}

/** Compiles expression; throws CelCompileError. */
export function compileExpression(expression: string, options: CompileOptions): CompiledExpression {
  let parsed;
  try {
    parsed = parse(expression);
  } catch (err) {
    throw new CelCompileError((err as Error).message);
  }
  const env = celEnv({ funcs: [...strings] });
  const run = plan(env, parsed);
  const declared = new Set(options.variables);
  return {
    expression,
    evaluate(activation: CelActivation): unknown {
      const bindings: Record<string, CelInput> = {};
      for (const [k, v] of Object.entries(activation)) if (declared.has(k)) bindings[k] = toCel(v);
      const result = run(bindings);
      if (isCelError(result)) throw new CelEvaluationError(result.message);
      return fromCel(result);
    },
  };
}
