/**
 * Pre-encoded JSON riding along with objects that come out of the watch cache, so that a response
 * in the stored version and in JSON can write bytes the cache already holds instead of encoding
 * the object again (serialise once, share bytes).
 *
 * The bytes are the object's JSON with `kind` and `apiVersion` first and metadata.resourceVersion
 * set, exactly what JSON.stringify(toExternal(scope, obj)) gives for an endpoint that serves the
 * stored version unchanged. They are attached as a non-enumerable symbol property, so spreading,
 * structuredClone and JSON.stringify never carry them to another object.
 */
import type { KubeObject } from '../../api/meta/types.js';

const encodedJson = Symbol('capstan.encodedJson');

interface Encoded {
  readonly bytes: Buffer;
  /** The resourceVersion the bytes were made for; an object that no longer has it is not trusted. */
  readonly resourceVersion: string;
}

/** Attaches the JSON bytes of obj (which must be exactly obj's JSON) and returns obj. */
export function attachEncodedJson<T extends KubeObject>(obj: T, bytes: Buffer): T {
  Object.defineProperty(obj, encodedJson, { value: { bytes, resourceVersion: obj.metadata.resourceVersion ?? '' } satisfies Encoded, enumerable: false, configurable: true });
  return obj;
}

/**
 * The JSON bytes attached to obj, or undefined when there are none or obj changed its
 * resourceVersion since (a sign it was modified and the bytes are stale).
 */
export function encodedJsonOf(obj: KubeObject): Buffer | undefined {
  const e = (obj as unknown as Record<symbol, Encoded | undefined>)[encodedJson];
  if (!e || e.resourceVersion !== (obj.metadata?.resourceVersion ?? '')) return undefined;
  return e.bytes;
}

/** The symbol under which a watch event exposes its object's JSON without decoding the object. */
export const eventJson: unique symbol = Symbol('capstan.eventJson');

/** A watch event that can give its object's JSON bytes (see above) without decoding it. */
export interface EncodedEvent {
  readonly [eventJson]: Buffer;
}

/** The JSON bytes of a watch event's object when the event carries them (events from the watch cache). */
export function encodedJsonOfEvent(ev: object): Buffer | undefined {
  return (ev as Partial<EncodedEvent>)[eventJson];
}
