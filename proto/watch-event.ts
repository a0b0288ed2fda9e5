/**
 * Watch events in Protobuf, as kube-apiserver streams them: each event is a meta/v1 WatchEvent
 * message {type = 1, object = 2 (RawExtension {raw = 1})} written without an envelope (the stream
 * frames each one with a 4-byte big-endian length), and the object inside is itself a whole
 * `k8s\0` envelope of the object's own kind.
 */
import { encodeObject, protobufToJson } from './codec.js';
import { ProtobufError } from './errors.js';
import type { JsonObject } from './types.js';
import { newWriter, WireType, writeTag } from './wire.js';

/** The message that carries watch events. */
export const WATCH_EVENT_MESSAGE = 'k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent';

/** One watch event: ADDED, MODIFIED, DELETED, BOOKMARK or ERROR, and its object. */
export interface WatchEventJson {
  readonly type: string;
  readonly object: JsonObject;
}

/** Encodes one watch event (without framing); the object must carry apiVersion and kind. */
export function encodeWatchEvent(event: WatchEventJson): Uint8Array {
  const w = newWriter();
  writeTag(w, 1, WireType.bytes);
  w.string(event.type);
  writeTag(w, 2, WireType.bytes);
  w.fork();
  writeTag(w, 1, WireType.bytes);
  w.bytes(encodeObject(event.object));
  w.ldelim();
  return w.finish();
}

/** Decodes one watch event (without framing); its object may be a nested envelope or embedded JSON. */
export function decodeWatchEvent(bytes: Uint8Array): WatchEventJson {
  const event = protobufToJson(WATCH_EVENT_MESSAGE, bytes) as { type?: unknown; object?: unknown };
  const object = event.object;
  if (typeof event.type !== 'string' || object === null || typeof object !== 'object' || Array.isArray(object)) {
    throw new ProtobufError('Malformed', 'watch event without a type or an object');
  }
  return { type: event.type, object: object as JsonObject };
}


