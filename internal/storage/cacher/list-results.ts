/**
 * The list results a cache answers with: items decoded only when read (the encoded bytes go to
 * JSON clients as they are), the paging snapshots continue tokens point into, and the error for a
 * resourceVersion the cache has not reached.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { StorageError } from '../errors.js';
import type { ListResult } from '../interface.js';
import { materialize, type CachedEntry } from './entries.js';

/** A paging snapshot: the sorted keys and entries at one revision. */
export interface Snapshot {
  readonly rv: number;
  readonly keys: readonly string[];
  readonly entries: readonly CachedEntry[];
  lastUsed: number;
}

const maxSnapshots = 16;
const snapshotTtlMs = 5 * 60_000;

/**
 * The paging snapshots of one cache, by revision: at most 16, each dropped after 5 minutes unused,
 * the least recently used first when room is needed.
 */
export class SnapshotStore {
  private readonly byRv = new Map<number, Snapshot>();

  get(rv: number): Snapshot | undefined {
    return this.byRv.get(rv);
  }

  /** The snapshot at rv, capturing one (capture: the cache's keys and entries now) if there is none. */
  take(rv: number, capture: () => { keys: readonly string[]; entries: readonly CachedEntry[] }): Snapshot {
    const existing = this.byRv.get(rv);
    if (existing) return existing;
    const now = Date.now();
    for (const [k, s] of this.byRv) if (now - s.lastUsed > snapshotTtlMs) this.byRv.delete(k);
    while (this.byRv.size >= maxSnapshots) {
      let oldest: Snapshot | undefined;
      for (const s of this.byRv.values()) if (!oldest || s.lastUsed < oldest.lastUsed) oldest = s;
      if (!oldest) break;
      this.byRv.delete(oldest.rv);
    }
    const snap: Snapshot = { rv, ...capture(), lastUsed: now };
    this.byRv.set(rv, snap);
    return snap;
  }

  clear(): void {
    this.byRv.clear();
  }
}

/** The error for a resourceVersion newer than the cache (and etcd) has reached. */
export function tooLarge(key: string, requested: bigint, current: bigint): StorageError {
  return new StorageError('TooLargeResourceVersion', key, `Too large resource version: ${requested}, current: ${current}`, undefined, {
    requested: requested.toString(),
    current: current.toString(),
  });
}

/**
 * A list result whose items are decoded only when someone reads them; encodedItems and keys are
 * there from the start. decoded holds objects already decoded (by a selector), by position.
 */
export function lazyList(
  entries: readonly CachedEntry[],
  decoded: readonly (KubeObject | undefined)[],
  resourceVersion: string,
  extra: { continueToken?: string; remainingItemCount?: number } = {},
): ListResult {
  let items: KubeObject[] | undefined;
  const result = {
    resourceVersion,
    keys: entries.map((e) => e.key),
    encodedItems: entries.map((e) => e.bytes),
    ...extra,
  } as unknown as ListResult;
  Object.defineProperty(result, 'items', {
    enumerable: true,
    configurable: true,
    get: () => {
      items ??= entries.map((e, i) => decoded[i] ?? materialize(e));
      return items;
    },
  });
  return result;
}
