/**
 * CEL expressions as Kubernetes uses them (admission matchConditions, ValidatingAdmissionPolicy,
 * MutatingAdmissionPolicy, CRD x-kubernetes-validations), on @bufbuild/cel in Kubernetes' CEL
 * environment (env.ts). An expression is compiled once (parse, macro expansion, compile-time
 * check of references and calls, plan) and evaluated per request against an activation of JSON
 * values, under a runtime cost limit.
 *
 * This is the shared entry point: callers import compileExpression / CelCompileError /
 * CelEvaluationError from here and never touch @bufbuild/cel directly.
 */
import { isCelError, parse, plan, type CelInput, type CelValue } from '@bufbuild/cel';
import { maxId, rewrite } from './ast.js';
import { checkExpr, formatIssues } from './check.js';
import { isKubeTypeName, kubeEnv, kubeFunctionShapes } from './env.js';
import { AuthorizationPending, costLimitExceededMessage, runWith, type AuthzBinding, type EvalState } from './eval-context.js';
import { originalOffset, preprocessOptionalSyntax } from './optional-syntax.js';
import { fromCel, toCel } from './values.js';

export { fromCel, optionalInput, PreparedCelInput, toCel } from './values.js';
export { typedList, typedMap, type ListSemantics } from './list-semantics.js';
export type { AuthzBinding } from './eval-context.js';
export type { CelInput } from '@bufbuild/cel';

/** kube's per-expression runtime cost limit (celconfig.PerCallLimit). */
export const perCallLimit = 1_000_000;
/** kube's runtime cost budget of one policy evaluation (celconfig.RuntimeCELCostBudget). */
export const runtimeCelCostBudget = 10_000_000;

/** Variable values by name; JSON values (objects, arrays, strings, numbers, booleans, null) or CEL values. */
export type CelActivation = Readonly<Record<string, unknown>>;

/** The expression does not compile (syntax, undeclared reference, unknown function). */
export class CelCompileError extends Error {}

/** Evaluation failed (no such key, no matching overload, cost limit, ...). */
export class CelEvaluationError extends Error {
  /** Set when the failure is the runtime cost limit. */
  readonly costExceeded: boolean;

  constructor(message: string, costExceeded = false) {
    super(message);
    this.costExceeded = costExceeded;
  }
}

/** How one evaluation runs. */
export interface EvaluateOptions {
  /** The cost limit of this evaluation (default: the compile option, else perCallLimit). */
  readonly costLimit?: number;
  /** What authorizer.* checks ask; without it they fail. */
  readonly authz?: AuthzBinding;
}

/** A result and what it cost. */
export interface Evaluation {
  readonly value: unknown;
  readonly cost: number;
}

/** A compiled expression. */
export interface CompiledExpression {
  readonly expression: string;
  /** The result converted to JS (boolean, string, number, bigint, arrays, plain objects, null); throws CelEvaluationError. Authorization checks must answer synchronously. */
  evaluate(activation: CelActivation, options?: EvaluateOptions): unknown;
  /** The result as a CEL value (for composition: a variable's value inside another expression's activation), with its cost. */
  evaluateValue(activation: CelActivation, options?: EvaluateOptions): { readonly value: CelValue; readonly cost: number };
  /** As evaluate, awaiting authorization checks that need I/O; resolves to the value and its runtime cost. Rejects with CelEvaluationError. */
  evaluateAsync(activation: CelActivation, options?: EvaluateOptions): Promise<Evaluation>;
}

/** What an expression may reference, and its default cost limit. */
export interface CompileOptions {
  /** The variables it may use (object, oldObject, request, params, authorizer, variables, self, ...). */
  readonly variables: readonly string[];
  /** The runtime cost limit of each evaluation (default perCallLimit). */
  readonly costLimit?: number;
  /** false skips the compile-time check of references and calls (conformance tests that expect runtime errors); default true. */
  readonly check?: boolean;
}

/** kube's wording of cel-es's errors where they differ. */
function kubeMessage(message: string): string {
  const field = /^field not found: (.*)$/.exec(message);
  if (field) return `no such key: ${field[1]}`;
  return message.replace(/^unbound function: (.*)$/, 'no such overload: $1');
}

// Compiled programs are stateless: policies compiled at create (validation) and again by the
// plugin, or shared by many policies, parse once.
const compiled = new Map<string, CompiledExpression | CelCompileError>();
const maxCached = 2000;

/** Compiles expression (cached by expression and options); throws CelCompileError with cel-go's "ERROR: <input>:l:c: ..." text. */
export function compileExpression(expression: string, options: CompileOptions): CompiledExpression {
  const key = `${options.variables.join(',')}\0${options.costLimit ?? ''}\0${options.check ?? ''}\0${expression}`;
  let c = compiled.get(key);
  if (!c) {
    try {
      c = compileUncached(expression, options);
    } catch (err) {
      if (!(err instanceof CelCompileError)) throw err;
      c = err;
    }
    if (compiled.size >= maxCached) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, c);
  }
  if (c instanceof CelCompileError) throw new CelCompileError(c.message);
  return c;
}

function compileUncached(expression: string, options: CompileOptions): CompiledExpression {
  const pre = preprocessOptionalSyntax(expression);
  let parsed;
  try {
    parsed = parse(pre.text);
  } catch (err) {
    const msg = (err as Error).message.replace(/^<input>:/, '');
    throw new CelCompileError(`ERROR: <input>:${msg}`);
  }
  if (!parsed.expr) throw new CelCompileError('ERROR: <input>:1:1: empty expression');
  let next = maxId(parsed.expr);
  rewrite(parsed.expr, () => ++next);
  const issues = options.check === false ? [] : checkExpr(parsed.expr, { variables: new Set(options.variables), functions: kubeFunctionShapes, isType: isKubeTypeName });
  if (issues.length) throw new CelCompileError(formatIssues(expression, issues, parsed.sourceInfo, (o) => originalOffset(pre, o)));
  const run = plan(kubeEnv, parsed);
  const declared = new Set(options.variables);
  const defaultLimit = options.costLimit ?? perCallLimit;

  const raw = (activation: CelActivation, opts: EvaluateOptions | undefined): { value: CelValue; cost: number } => {
    const bindings: Record<string, CelInput> = {};
    for (const [k, v] of Object.entries(activation)) if (declared.has(k)) bindings[k] = toCel(v);
    const state: EvalState = { cost: 0, limit: opts?.costLimit ?? defaultLimit, authz: opts?.authz };
    const result = runWith(state, () => run(bindings));
    if (state.cost > state.limit) throw new CelEvaluationError(costLimitExceededMessage, true);
    if (opts?.authz && opts.authz.pending.size > 0) throw new AuthorizationPending('authorization pending');
    if (isCelError(result)) {
      if (result.cause instanceof AuthorizationPending || result.cause instanceof CelEvaluationError) throw result.cause;
      throw new CelEvaluationError(kubeMessage(result.message));
    }
    return { value: result, cost: state.cost };
  };
  const once = (activation: CelActivation, opts: EvaluateOptions | undefined): Evaluation => {
    const r = raw(activation, opts);
    return { value: fromCel(r.value), cost: r.cost };
  };

  return {
    expression,
    evaluateValue: raw,
    evaluate(activation, opts) {
      try {
        return once(activation, opts).value;
      } catch (err) {
        if (err instanceof AuthorizationPending) throw new CelEvaluationError('authorization check needs an asynchronous authorizer; use evaluateAsync');
        throw err;
      }
    },
    async evaluateAsync(activation, opts) {
      // Each pass learns the answers of the checks it reached; CEL is pure, so re-running is safe.
      for (let pass = 0; ; pass++) {
        try {
          return once(activation, opts);
        } catch (err) {
          if (!(err instanceof AuthorizationPending) || !opts?.authz || pass > 64) throw err;
          const pending = [...opts.authz.pending.values()];
          opts.authz.pending.clear();
          await Promise.all(pending);
        }
      }
    },
  };
}
