/**
 * The bytes a write put into etcd, riding along with the object the store returns for it and with
 * the etcd watch event that reports it, so that a watch cache can recognise its own server's write
 * when the event comes back and reuse what the write path already made instead of decoding the
 * value again (hand the write's result over by revision).
 *
 * In etcd one key at one mod revision holds exactly one value, so the key, the revision and the
 * stored bytes (compared as well, as a guard) identify the write. The bytes are the value as
 * stored: sealed when encryption at rest is on. Both are attached as non-enumerable symbol
 * properties, so spreading, structuredClone and JSON.stringify never carry them elsewhere.
 */
import type { KubeObject } from '../../api/meta/types.js';

const storedWrite = Symbol('capstan.storedWrite');

/** What one write stored. */
export interface StoredWrite {
  /** The value in etcd, exactly as put (after the resource's transformer). */
  readonly value: Buffer;
  /** The write's revision: the object's resourceVersion when it was returned. */
  readonly resourceVersion: string;
}

/** Records on obj (the object a write returned, with its resourceVersion set) the value that write stored; returns obj. */
export function attachStoredWrite<T extends KubeObject>(obj: T, value: Buffer): T {
  const w: StoredWrite = { value, resourceVersion: obj.metadata.resourceVersion ?? '' };
  Object.defineProperty(obj, storedWrite, { value: w, enumerable: false, configurable: true });
  return obj;
}

/** The value the write that returned obj stored, or undefined when there is none or obj's resourceVersion changed since. */
export function storedWriteOf(obj: KubeObject): StoredWrite | undefined {
  const w = (obj as unknown as Record<symbol, StoredWrite | undefined>)[storedWrite];
  if (!w || w.resourceVersion !== (obj.metadata?.resourceVersion ?? '')) return undefined;
  return w;
}

/** The symbol under which an etcd watch event of a put exposes its stored value and mod revision. */
export const eventStoredValue: unique symbol = Symbol('capstan.eventStoredValue');

/** A watch event that carries the value etcd reported for it (puts only), readable without decoding it. */
export interface StoredValueEvent {
  readonly [eventStoredValue]?: { readonly value: Buffer; readonly modRevision: string };
}

/** The stored value and mod revision of a watch event from the etcd store, when it is a put. */
export function storedValueOfEvent(ev: object): { readonly value: Buffer; readonly modRevision: string } | undefined {
  return (ev as StoredValueEvent)[eventStoredValue];
}
