/**
 * ConfigMaps and Secrets the node agent reads for env vars and volumes, straight from the API server
 * (the Node authorizer lets a node read those its pods reference). Secret data is decoded from
 * base64. A missing object is undefined; other failures throw.
 */
import type { ApiClient } from '../client/api-client.js';
import { isApiCode } from '../client/api-client.js';

/** Key -> bytes of a ConfigMap (data and binaryData) or a Secret (data). */
export type DataMap = Map<string, Buffer>;

/** Reads ConfigMaps and Secrets of a namespace. */
export interface ConfigObjects {
  configMap(namespace: string, name: string): Promise<DataMap | undefined>;
  secret(namespace: string, name: string): Promise<DataMap | undefined>;
}

/** The ConfigObjects of client. */
export function apiConfigObjects(client: ApiClient): ConfigObjects {
  async function read(path: string): Promise<Record<string, unknown> | undefined> {
    try {
      return (await client.get(path)) as unknown as Record<string, unknown>;
    } catch (err) {
      if (isApiCode(err, 404)) return undefined;
      throw err;
    }
  }
  return {
    async configMap(namespace, name) {
      const obj = await read(`/api/v1/namespaces/${namespace}/configmaps/${name}`);
      if (!obj) return undefined;
      const out: DataMap = new Map();
      for (const [k, v] of Object.entries((obj.data ?? {}) as Record<string, string>)) out.set(k, Buffer.from(v, 'utf8'));
      for (const [k, v] of Object.entries((obj.binaryData ?? {}) as Record<string, string>)) out.set(k, Buffer.from(v, 'base64'));
      return out;
    },
    async secret(namespace, name) {
      const obj = await read(`/api/v1/namespaces/${namespace}/secrets/${name}`);
      if (!obj) return undefined;
      const out: DataMap = new Map();
      for (const [k, v] of Object.entries((obj.data ?? {}) as Record<string, string>)) out.set(k, Buffer.from(v, 'base64'));
      return out;
    },
  };
}
