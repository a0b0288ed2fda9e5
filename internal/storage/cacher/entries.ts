/**
 * What the watch cache holds per object and per event: the object's JSON bytes (encoded once,
 * with kind and apiVersion first and its resourceVersion set), never the decoded object, so an
 * object costs about its JSON size. Objects are decoded on demand, and a watch event decodes its
 * object at most once however many watchers receive it.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { compareByteOrder } from '../../selectors/byte-order.js';
import { attachEncodedJson, eventJson } from '../encoded.js';

/** One cached object. Immutable. */
export interface CachedEntry {
  /** The storage key (as given to the store), e.g. "/pods/default/web-0". */
  readonly key: string;
  /** Its mod revision (the resourceVersion in bytes). */
  readonly rv: number;
  /** The object's JSON (see encoded.ts). */
  readonly bytes: Buffer;
  /** The value of the resource's indexed field (pods: spec.nodeName), when it has one. */
  readonly indexValue?: string;
}

/** JSON bytes of obj with kind and apiVersion first, as toExternal orders them for the stored version. */
export function encodeForCache(obj: KubeObject): Buffer {
  const { kind, apiVersion, ...rest } = obj;
  const text = JSON.stringify({ kind, apiVersion, ...rest });
  // Its own memory, exactly its size: Buffer.from would cut small buffers from Node's shared 8 KiB
  // pool, and one long-lived cache entry would then keep a whole slab (and whatever shared it) alive.
  const out = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  out.write(text, 0);
  return out;
}

/** A fresh decoded copy of an entry, carrying its bytes for responses that can reuse them. */
export function materialize(entry: CachedEntry): KubeObject {
  return attachEncodedJson(JSON.parse(entry.bytes.toString('utf8')) as KubeObject, entry.bytes);
}

/**
 * A watch event shared by every watcher it goes to: the object is decoded the first time someone
 * reads it. Consumers must not mutate it (the watch handler only reads and converts copies).
 */
export class CachedWatchEvent {
  private decoded: KubeObject | undefined;
  constructor(
    readonly type: 'ADDED' | 'MODIFIED' | 'DELETED',
    private readonly entry: CachedEntry,
  ) {}

  get key(): string {
    return this.entry.key;
  }

  /** The object's JSON, without decoding it. */
  get [eventJson](): Buffer {
    return this.entry.bytes;
  }

  get object(): KubeObject {
    this.decoded ??= materialize(this.entry);
    return this.decoded;
  }
}

/** The first index whose key is not below key, comparing as etcd does (by UTF-8 bytes). */
export function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareByteOrder(keys[mid] as string, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose key does not start with prefix (keys from start on start with it or come after). */
export function prefixEndIndex(keys: readonly string[], prefix: string, start: number): number {
  let lo = start;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const k = keys[mid] as string;
    if (k.startsWith(prefix) || compareByteOrder(k, prefix) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
