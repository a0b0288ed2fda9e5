/**
 * How objects become bytes in the store and back. The store never keeps a resourceVersion or
 * selfLink inside stored bytes (kube's PrepareObjectForStorage), so they are cleared on encode.
 *
 * --storage-media-type picks what is written (JSON, YAML or kube's Protobuf envelope); whatever
 * is read is recognised by its first bytes ("k8s\0" is Protobuf, "{" JSON, anything else YAML),
 * so switching the flag needs no migration: objects are rewritten in the new encoding on their
 * next write, as with kube-apiserver.
 */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { KubeObject } from '../../api/meta/types.js';
import { decodeObject, encodeObject, findMessageForTypeMeta } from '../../proto/codec.js';
import { hasProtobufMagic } from '../../proto/envelope.js';
import type { JsonObject } from '../../proto/types.js';
import { StorageError } from './errors.js';

/** Turns objects into stored bytes and back. Implementations must not mutate their input. */
export interface StorageCodec {
  /** The bytes to store for obj, without resourceVersion and selfLink. */
  encode(obj: KubeObject): Buffer;
  /** The object stored under key; throws StorageError Corrupt on undecodable bytes. */
  decode(key: string, data: Buffer): KubeObject;
}

/** obj without metadata.resourceVersion and metadata.selfLink (obj itself when it has neither). */
function forStorage(obj: KubeObject): KubeObject {
  const meta = obj.metadata;
  if (meta && (meta.resourceVersion !== undefined || meta.selfLink !== undefined)) {
    const { resourceVersion: _rv, selfLink: _sl, ...rest } = meta;
    return { ...obj, metadata: rest };
  }
  return obj;
}

function asStoredObject(key: string, value: unknown, format: string): KubeObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StorageError('Corrupt', key, `stored object at ${key} is not a ${format} object`);
  }
  const obj = value as KubeObject;
  if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
  return obj;
}

function corrupt(key: string, err: unknown): StorageError {
  return new StorageError('Corrupt', key, `unable to decode stored object at ${key}: ${(err as Error).message}`);
}

/** Decodes stored bytes in any of the three encodings, recognised by their first bytes. */
export function decodeStored(key: string, data: Buffer): KubeObject {
  if (hasProtobufMagic(data)) {
    try {
      return asStoredObject(key, decodeObject(data), 'Protobuf');
    } catch (err) {
      throw corrupt(key, err);
    }
  }
  let i = 0;
  while (i < data.length && (data[i] === 0x20 || data[i] === 0x0a || data[i] === 0x0d || data[i] === 0x09)) i++;
  if (data[i] === 0x7b /* { */) {
    try {
      return asStoredObject(key, JSON.parse(data.toString('utf8')), 'JSON');
    } catch (err) {
      throw err instanceof StorageError ? err : corrupt(key, err);
    }
  }
  try {
    return asStoredObject(key, parseYaml(data.toString('utf8')), 'YAML');
  } catch (err) {
    throw err instanceof StorageError ? err : corrupt(key, err);
  }
}

/** Stores objects as JSON, as kube does with --storage-media-type=application/json. */
export const jsonCodec: StorageCodec = {
  encode(obj) {
    return Buffer.from(JSON.stringify(forStorage(obj)));
  },
  decode: decodeStored,
};

/** Stores objects as YAML (--storage-media-type=application/yaml). */
export const yamlCodec: StorageCodec = {
  encode(obj) {
    return Buffer.from(stringifyYaml(forStorage(obj), { lineWidth: 0 }));
  },
  decode: decodeStored,
};

/**
 * Stores objects in kube's Protobuf envelope (--storage-media-type=application/vnd.kubernetes.protobuf,
 * kube's default): the bytes kube-apiserver writes for the same object. Kinds without a Protobuf
 * message (custom resources) are stored as JSON, as kube stores them.
 */
export const protobufCodec: StorageCodec = {
  encode(obj) {
    const stored = forStorage(obj);
    if (typeof stored.apiVersion !== 'string' || typeof stored.kind !== 'string' || !findMessageForTypeMeta(stored.apiVersion, stored.kind)) {
      return Buffer.from(JSON.stringify(stored));
    }
    const bytes = encodeObject(stored as unknown as JsonObject);
    return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  },
  decode: decodeStored,
};

/** The media types --storage-media-type accepts. */
export const storageMediaTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'] as const;

/** A --storage-media-type value. */
export type StorageMediaType = (typeof storageMediaTypes)[number];

/** The codec for a --storage-media-type value. */
export function codecForMediaType(mediaType: StorageMediaType): StorageCodec {
  switch (mediaType) {
    case 'application/json':
      return jsonCodec;
    case 'application/yaml':
      return yamlCodec;
    case 'application/vnd.kubernetes.protobuf':
      return protobufCodec;
  }
}
