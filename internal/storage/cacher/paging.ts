/**
 * One page of a cache's list: the entries under a key prefix that a selector takes, up to the limit,
 * and a continue token (with a snapshot to continue from) when more remain; from the live cache or
 * from a snapshot a continue token points into.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { compareByteOrder } from '../../selectors/byte-order.js';
import { encodeContinue } from '../continue-token.js';
import type { ListResult, SelectionPredicate } from '../interface.js';
import { lowerBound, materialize, prefixEndIndex, type CachedEntry } from './entries.js';
import { lazyList } from './list-results.js';
import type { IndexedField } from './options.js';

/** What a page is cut from. */
export interface PageInput {
  /** The keys in order; entryAt(i) is the entry of keys[i]. */
  readonly keys: readonly string[];
  readonly entryAt: (i: number) => CachedEntry;
  readonly scope: string;
  /** The first index to look at (a continue token's position). */
  readonly start: number;
  readonly pred: SelectionPredicate;
  readonly rv: number;
  readonly indexedField: IndexedField | undefined;
  /**
   * From the live cache (not a snapshot): its index narrows an unpaged list that requires an
   * indexed value, and a page with more to come takes a snapshot at rv to continue from.
   */
  readonly live?: {
    readonly index: { get(value: string): ReadonlySet<string> | undefined };
    readonly entries: ReadonlyMap<string, CachedEntry>;
    snapshot(rv: number): void;
  };
}

/** One page of input.keys[input.start..] under input.scope. */
export function pageOf(input: PageInput): ListResult {
  const { keys, entryAt, scope, start, pred, rv, live } = input;
  const limit = pred.limit && pred.limit > 0 ? pred.limit : 0;
  const first = Math.max(start, lowerBound(keys, scope));
  const end = prefixEndIndex(keys, scope, first);
  const idx = input.indexedField;
  const required = idx && pred.requiredFieldValue ? pred.requiredFieldValue(idx.field) : undefined;
  const selected: CachedEntry[] = [];
  const decoded: Array<KubeObject | undefined> = [];
  if (required !== undefined && live && !limit) {
    // The index narrows the candidates; the selector still decides.
    const candidates = [...(live.index.get(required) ?? [])].filter((k) => k.startsWith(scope)).sort(compareByteOrder);
    for (const k of candidates) {
      const e = live.entries.get(k) as CachedEntry;
      const obj = materialize(e);
      if (pred.matches(obj)) {
        selected.push(e);
        decoded.push(obj);
      }
    }
    return lazyList(selected, decoded, String(rv));
  }
  const selects = (e: CachedEntry): KubeObject | true | undefined => {
    if (pred.everything) return true;
    if (required !== undefined && e.indexValue !== undefined && e.indexValue !== required) return undefined;
    const obj = materialize(e);
    return pred.matches(obj) ? obj : undefined;
  };
  let i = first;
  let lastIncluded = -1;
  for (; i < end; i++) {
    if (limit && selected.length >= limit) break;
    const e = entryAt(i);
    const hit = selects(e);
    if (hit === undefined) continue;
    selected.push(e);
    decoded.push(hit === true ? undefined : hit);
    lastIncluded = i;
  }
  let more = false;
  if (limit > 0 && selected.length >= limit) {
    for (let j = i; j < end && !more; j++) more = selects(entryAt(j)) !== undefined;
  }
  if (!more) return lazyList(selected, decoded, String(rv));
  live?.snapshot(rv);
  return lazyList(selected, decoded, String(rv), {
    continueToken: encodeContinue(`${keys[lastIncluded] as string}\x00`, scope, BigInt(rv)),
    ...(pred.everything ? { remainingItemCount: end - i } : {}),
  });
}
