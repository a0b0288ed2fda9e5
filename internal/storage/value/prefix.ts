/**
 * kube's prefix transformers: an ordered list of (prefix, transformer). The first one writes (its
 * prefix before its output); a read goes to every entry whose prefix the value starts with, in
 * order, until one can read it. Providers nest this twice: "k8s:enc:aescbc:v1:" picks the
 * provider, "<key name>:" picks the key inside it.
 */
import { aggregateMessages, errorMessage, TransformError, type ReadResult, type ValueTransformer } from './interface.js';

/** One entry: values starting with prefix belong to transformer (an empty prefix matches all). */
export interface PrefixedTransformer {
  readonly prefix: Buffer;
  readonly transformer: ValueTransformer;
}

function hasPrefix(data: Buffer, prefix: Buffer): boolean {
  const n = prefix.length;
  if (n === 0) return true;
  if (data.length < n) return false;
  for (let i = 0; i < n; i++) if (data[i] !== prefix[i]) return false;
  return true;
}

/** Several prefixed transformers as one (kube's NewPrefixTransformers). */
export class PrefixTransformers implements ValueTransformer {
  readonly prepareRead?: (values: readonly Buffer[]) => Promise<void> | undefined;

  /**
   * entries must not be empty; noMatch is the error when no prefix matches (kube: "no matching
   * prefix found" for providers, "no matching key was found for the provided AES transformer"
   * for keys).
   */
  constructor(
    private readonly entries: readonly PrefixedTransformer[],
    private readonly noMatch: string,
  ) {
    if (entries.length === 0) throw new Error('PrefixTransformers needs at least one transformer');
    const preparers = entries.filter((e) => e.transformer.prepareRead !== undefined);
    if (preparers.length > 0) this.prepareRead = (values) => prepareAll(preparers, values);
  }

  fromStorage(data: Buffer, context: string): ReadResult {
    let errors: string[] | undefined;
    const entries = this.entries;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i] as PrefixedTransformer;
      if (!hasPrefix(data, e.prefix)) continue;
      try {
        const r = e.transformer.fromStorage(e.prefix.length === 0 ? data : data.subarray(e.prefix.length), context);
        // Read by a transformer that is not the first: rewrite it with the first on the next update.
        return i === 0 || r.stale ? r : { data: r.data, stale: true };
      } catch (err) {
        // An identity entry refusing encrypted data must not hide a later provider that can read it.
        if (e.prefix.length === 0) continue;
        // Several entries may share a prefix (the same provider twice during a rotation): try on.
        (errors ??= []).push(errorMessage(err));
      }
    }
    throw new TransformError(errors ? aggregateMessages(errors) : this.noMatch);
  }

  toStorage(data: Buffer, context: string): Buffer {
    const first = this.entries[0] as PrefixedTransformer;
    const out = first.transformer.toStorage(data, context);
    return first.prefix.length === 0 ? out : Buffer.concat([first.prefix, out]);
  }
}

function prepareAll(preparers: readonly PrefixedTransformer[], values: readonly Buffer[]): Promise<void> | undefined {
  let pending: Promise<void>[] | undefined;
  for (const e of preparers) {
    const mine = values.filter((v) => hasPrefix(v, e.prefix));
    if (mine.length === 0) continue;
    const p = (e.transformer.prepareRead as NonNullable<ValueTransformer['prepareRead']>)(e.prefix.length === 0 ? mine : mine.map((v) => v.subarray(e.prefix.length)));
    if (p) (pending ??= []).push(p);
  }
  if (!pending) return undefined;
  return pending.length === 1 ? pending[0] : Promise.all(pending).then(() => undefined);
}
