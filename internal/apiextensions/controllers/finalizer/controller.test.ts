import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { markCrdForDeletion } from '../../../registry/apiextensions/customresourcedefinitions/delete.js';
import type { RestStorage } from '../../../registry/interface.js';
import type { RequestContext } from '../../../request/context.js';
import { findCondition, setCondition } from '../conditions.js';
import { crd, FakeCrds, until } from '../testing.js';
import { startFinalizerController } from './controller.js';

/** Instances of one resource in memory; an instance with finalizers is only marked by a delete. */
class FakeInstances implements RestStorage {
  readonly items = new Map<string, KubeObject>();
  failDeletes = false;
  readonly deletedNamespaces: string[] = [];

  add(namespace: string, name: string, finalizers?: string[]): void {
    this.items.set(`${namespace}/${name}`, { metadata: { namespace, name, ...(finalizers ? { finalizers } : {}) } });
  }

  async list() {
    return { items: [...this.items.values()].map((o) => structuredClone(o)), resourceVersion: '1' };
  }

  async deleteCollection(ctx: RequestContext) {
    if (this.failDeletes) throw new Error('etcd is down');
    const ns = ctx.requestInfo.namespace;
    this.deletedNamespaces.push(ns);
    const out: KubeObject[] = [];
    for (const [key, obj] of this.items) {
      if (obj.metadata.namespace !== ns) continue;
      if (obj.metadata.finalizers?.length) obj.metadata.deletionTimestamp = '2020-01-01T00:00:00Z';
      else this.items.delete(key);
      out.push(obj);
    }
    return out;
  }
}

function established(c: KubeObject): KubeObject {
  setCondition(c, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
  (c.status as Record<string, unknown>).acceptedNames = { plural: 'widgets', kind: 'Widget' };
  return c;
}

const reasons = (store: FakeCrds): string[] => store.writes.map((w) => findCondition(w, 'Terminating')?.reason ?? '');

describe('CRD finalizer', () => {
  it('deletes the instances of every namespace, then removes its finalizer so the CRD goes', async () => {
    const store = new FakeCrds();
    const instances = new FakeInstances();
    instances.add('a', 'one');
    instances.add('a', 'two');
    instances.add('b', 'three');
    const asked: string[] = [];
    const running = startFinalizerController(store.deps(), {
      instanceStorage: (group, plural) => (asked.push(`${plural}.${group}`), instances),
    });
    try {
      const c = established(crd('example.com', { plural: 'widgets', kind: 'Widget' }));
      // A live CRD is left alone.
      store.put(c);
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(store.writes.length, 0);
      markCrdForDeletion(c);
      store.put(c);
      await until('the CRD gone', () => store.get('widgets.example.com') === undefined);
      assert.equal(instances.items.size, 0);
      assert.deepEqual(instances.deletedNamespaces.sort(), ['a', 'b']);
      assert.deepEqual(asked, ['widgets.example.com']);
      assert.deepEqual(reasons(store), ['InstanceDeletionInProgress', 'InstanceDeletionCompleted']);
      const first = findCondition(store.writes[0] as KubeObject, 'Terminating');
      assert.deepEqual([first?.status, first?.message], ['True', 'CustomResource deletion is in progress']);
      assert.deepEqual(store.writes[1]?.metadata.finalizers, []);
    } finally {
      running.stop();
    }
  });

  it('reports failed deletes in the condition and retries until they succeed', async () => {
    const store = new FakeCrds();
    const instances = new FakeInstances();
    instances.add('a', 'one');
    instances.failDeletes = true;
    const running = startFinalizerController(store.deps(), { instanceStorage: () => instances });
    try {
      const c = established(crd('example.com', { plural: 'widgets', kind: 'Widget' }));
      markCrdForDeletion(c);
      store.put(c);
      await until('the failure recorded', () => findCondition(store.get('widgets.example.com')!, 'Terminating')?.reason === 'InstanceDeletionFailed');
      assert.deepEqual(findCondition(store.get('widgets.example.com')!, 'Terminating')?.message, 'could not issue all deletes: etcd is down');
      assert.ok(store.get('widgets.example.com')?.metadata.finalizers?.includes('customresourcecleanup.apiextensions.k8s.io'));
      instances.failDeletes = false;
      await until('the CRD gone', () => store.get('widgets.example.com') === undefined);
      assert.equal(instances.items.size, 0);
    } finally {
      running.stop();
    }
  });

  it('waits for instances held by their own finalizers (InstanceDeletionCheck when they stay)', async () => {
    const store = new FakeCrds();
    const instances = new FakeInstances();
    instances.add('a', 'held', ['example.com/hold']);
    const running = startFinalizerController(store.deps(), { instanceStorage: () => instances, polling: { intervalMs: 10, timeoutMs: 50 } });
    try {
      const c = established(crd('example.com', { plural: 'widgets', kind: 'Widget' }));
      markCrdForDeletion(c);
      store.put(c);
      await until('the check failure', () => findCondition(store.get('widgets.example.com')!, 'Terminating')?.reason === 'InstanceDeletionCheck');
      assert.equal(
        findCondition(store.get('widgets.example.com')!, 'Terminating')?.message,
        'could not confirm zero CustomResources remaining: timed out waiting for the condition',
      );
      instances.items.clear();
      await until('the CRD gone', () => store.get('widgets.example.com') === undefined);
    } finally {
      running.stop();
    }
  });

  it('a CRD never established, or not served, goes without deleting anything', async () => {
    const store = new FakeCrds();
    const running = startFinalizerController(store.deps(), { instanceStorage: () => assert.fail('no instance storage is needed') });
    try {
      const c = crd('example.com', { plural: 'widgets', kind: 'Widget' });
      markCrdForDeletion(c);
      store.put(c);
      await until('the CRD gone', () => store.get('widgets.example.com') === undefined);
      const last = store.writes.at(-1) as KubeObject;
      assert.deepEqual([findCondition(last, 'Terminating')?.status, findCondition(last, 'Terminating')?.reason, findCondition(last, 'Terminating')?.message], [
        'False',
        'NeverEstablished',
        'resource was never established',
      ]);
    } finally {
      running.stop();
    }
  });

  it('an established CRD whose resource is not served records InstanceDeletionFailed', async () => {
    const store = new FakeCrds();
    const running = startFinalizerController(store.deps(), { instanceStorage: () => undefined });
    try {
      const c = established(crd('example.com', { plural: 'widgets', kind: 'Widget' }));
      markCrdForDeletion(c);
      store.put(c);
      await until('the failure', () => findCondition(store.get('widgets.example.com')!, 'Terminating')?.reason === 'InstanceDeletionFailed');
      assert.match(findCondition(store.get('widgets.example.com')!, 'Terminating')?.message ?? '', /^could not list instances: unable to find a custom resource client for widgets\.example\.com: /);
    } finally {
      running.stop();
    }
  });
});
