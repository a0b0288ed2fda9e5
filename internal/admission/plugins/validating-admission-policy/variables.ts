/**
 * The `variables` activation value: each of the policy's variables evaluated on first access
 * (kube's lazily composited variables), its cost charged to the expression that reached it, and
 * its result (or error) kept for every later expression of the same evaluation.
 */
import type { CelValue } from '@bufbuild/cel';
import { CelEvaluationError, type CelActivation, type EvaluateOptions } from '../../../cel/expression.js';
import { charge } from '../../../cel/eval-context.js';
import type { Program } from './compile.js';

type Outcome = { value: CelValue } | { error: Error };

/** A Map whose entries are computed on demand (a Map so CEL sees a map value). */
export class LazyVariables extends Map<string, CelValue> {
  private readonly outcomes = new Map<string, Outcome>();
  private readonly byName: Map<string, Program>;
  activation: CelActivation = {};

  constructor(
    variables: readonly { readonly name: string; readonly value: Program }[],
    private readonly options: EvaluateOptions,
  ) {
    super();
    this.byName = new Map(variables.map((v) => [v.name, v.value]));
  }

  override get size(): number {
    return this.byName.size;
  }

  override has(name: string): boolean {
    return this.byName.has(name);
  }

  override get(name: string): CelValue | undefined {
    const p = this.byName.get(name);
    if (!p) return undefined;
    let o = this.outcomes.get(name);
    if (!o) {
      if (p.error !== undefined) o = { error: new CelEvaluationError(`composited variable "${name}" fails to evaluate: compilation error: ${p.error}`) };
      else {
        try {
          const r = p.program.evaluateValue(this.activation, this.options);
          charge(r.cost);
          o = { value: r.value };
        } catch (err) {
          if (!(err instanceof CelEvaluationError)) throw err;
          o = { error: new CelEvaluationError(`composited variable "${name}" fails to evaluate: ${err.message}`, err.costExceeded) };
        }
      }
      this.outcomes.set(name, o);
    }
    if ('error' in o) throw o.error;
    return o.value;
  }

  override *keys(): MapIterator<string> {
    yield* this.byName.keys();
  }

  override *entries(): MapIterator<[string, CelValue]> {
    for (const k of this.byName.keys()) yield [k, this.get(k)!];
  }

  override *values(): MapIterator<CelValue> {
    for (const k of this.byName.keys()) yield this.get(k)!;
  }

  override [Symbol.iterator](): MapIterator<[string, CelValue]> {
    return this.entries();
  }
}
