/**
 * How objects become bytes in the store and back. The store never keeps a resourceVersion or
 * selfLink inside stored bytes (kube's PrepareObjectForStorage), so they are cleared on encode.
 */
import type { KubeObject } from '../../api/meta/types.js';
import { StorageError } from './errors.js';

/** Turns objects into stored bytes and back. Implementations must not mutate their input. */
export interface StorageCodec {
  /** The bytes to store for obj, without resourceVersion and selfLink. */
  encode(obj: KubeObject): Buffer;
  /** The object stored under key; throws StorageError Corrupt on undecodable bytes. */
  decode(key: string, data: Buffer): KubeObject;
}

/** Stores objects as JSON, as kube does with --storage-media-type=application/json. */
export const jsonCodec: StorageCodec = {
  encode(obj) {
    const meta = obj.metadata;
    if (meta && (meta.resourceVersion !== undefined || meta.selfLink !== undefined)) {
      const { resourceVersion: _rv, selfLink: _sl, ...rest } = meta;
      return Buffer.from(JSON.stringify({ ...obj, metadata: rest }));
    }
    return Buffer.from(JSON.stringify(obj));
  },
  decode(key, data) {
    let value: unknown;
    try {
      value = JSON.parse(data.toString('utf8'));
    } catch (err) {
      throw new StorageError('Corrupt', key, `unable to decode stored object at ${key}: ${(err as Error).message}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new StorageError('Corrupt', key, `stored object at ${key} is not a JSON object`);
    }
    const obj = value as KubeObject;
    if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
    return obj;
  },
};
