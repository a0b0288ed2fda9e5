import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { internalContext } from '../../request/context.js';
import type { Storage } from '../../storage/interface.js';
import { configMapStrategy } from '../core/configmaps/strategy.js';
import { listEverything } from '../interface.js';
import { GenericStore } from './store.js';

/** A storage holding n configmaps whose deletes take a few milliseconds, counting how many run at once. */
function slowStorage(n: number): { storage: Storage; maxConcurrent: () => number; left: () => number } {
  const objects = new Map<string, KubeObject>();
  for (let i = 0; i < n; i++) objects.set(`/configmaps/ns/cm-${i}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'ns', uid: `u${i}`, resourceVersion: '5' } });
  let running = 0;
  let max = 0;
  const storage = {
    async get(key: string) {
      const o = objects.get(key);
      if (!o) throw Object.assign(new Error('not found'), { code: 'NotFound' });
      return structuredClone(o);
    },
    async getList() {
      return { items: [...objects.values()].map((o) => structuredClone(o)), resourceVersion: '5' };
    },
    async delete(key: string) {
      running++;
      max = Math.max(max, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      const o = objects.get(key) as KubeObject;
      objects.delete(key);
      return o;
    },
  } as unknown as Storage;
  return { storage, maxConcurrent: () => max, left: () => objects.size };
}

describe('deleteCollection workers (--delete-collection-workers)', () => {
  const ctx = internalContext({ verb: 'deletecollection', resource: 'configmaps', namespace: 'ns' });
  const resource = { group: '', resource: 'configmaps', kind: 'ConfigMap', keyPrefix: '/configmaps' };

  for (const [workers, expected] of [
    [undefined, 1],
    [0, 1],
    [1, 1],
    [3, 3],
  ] as const) {
    it(`deletes with ${expected} at a time when the setting is ${String(workers)}`, async () => {
      const s = slowStorage(12);
      const store = new GenericStore(resource, configMapStrategy, s.storage, {}, workers === undefined ? {} : { deleteCollectionWorkers: workers });
      const deleted = await store.deleteCollection(ctx, listEverything, { dryRun: false });
      assert.equal(deleted.length, 12);
      assert.equal(s.left(), 0);
      assert.equal(s.maxConcurrent(), expected);
    });
  }
});
