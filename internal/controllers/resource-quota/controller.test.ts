import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import type { Logger } from '../../observability/logging.js';
import type { QuotaObject } from '../../quota/interface.js';
import { objectKey, type Informer, type InformerHandlers } from '../informer.js';
import type { SharedInformers } from '../shared-informers.js';
import { ResourceQuotaController } from './controller.js';
import { updateNeedsReplenish } from './update-filter.js';
import { WorkQueue } from './work-queue.js';

/** An informer whose contents the test changes, delivering events to handlers. */
class FakeInformer {
  readonly items = new Map<string, KubeObject>();
  readonly handlers: InformerHandlers[] = [];
  readonly synced = Promise.resolve();
  hasSynced = () => true;
  get = (key: string) => this.items.get(key);
  list = () => this.items.values();
  addHandlers(h: InformerHandlers): void {
    this.handlers.push(h);
    for (const o of this.items.values()) h.added?.(o);
  }
  put(obj: KubeObject): void {
    const old = this.items.get(objectKey(obj));
    this.items.set(objectKey(obj), obj);
    for (const h of this.handlers) old ? h.updated?.(obj, old) : h.added?.(obj);
  }
  remove(obj: KubeObject): void {
    this.items.delete(objectKey(obj));
    for (const h of this.handlers) h.deleted?.(obj);
  }
}

const log: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, v: () => undefined };

function setup() {
  const informers = new Map<string, FakeInformer>();
  const shared = {
    get(group: string, resource: string): Informer {
      if (resource === 'nothere') throw new Error('no storage');
      const key = `${resource}.${group}`;
      let i = informers.get(key);
      if (!i) informers.set(key, (i = new FakeInformer()));
      return i as unknown as Informer;
    },
  } as unknown as SharedInformers;
  const writes: QuotaObject[] = [];
  const quotas = shared.get('', 'resourcequotas') as unknown as FakeInformer;
  const controller = new ResourceQuotaController({
    informers: shared,
    log,
    writeStatus: async (q) => {
      writes.push(q);
      const stored = { ...q, metadata: { ...q.metadata, resourceVersion: String(Number(q.metadata.resourceVersion ?? '0') + 1) } };
      quotas.put(stored);
      return stored;
    },
  });
  const informer = (group: string, resource: string) => shared.get(group, resource) as unknown as FakeInformer;
  return { controller, writes, quotas, informer };
}

const pod = (name: string, ns: string, extra: Record<string, unknown> = {}): KubeObject =>
  ({ metadata: { name, namespace: ns }, spec: { containers: [{ name: 'c', resources: { requests: { cpu: '100m' } } }] }, ...extra }) as KubeObject;

describe('ResourceQuotaController', () => {
  it('fills status.hard and status.used on create, recounts after a delete and a finished pod', async () => {
    const { controller, writes, quotas, informer } = setup();
    const pods = informer('', 'pods');
    pods.put(pod('a', 'ns'));
    pods.put(pod('b', 'ns'));
    pods.put(pod('other', 'elsewhere'));
    informer('apps', 'deployments').put({ metadata: { name: 'd', namespace: 'ns' } });
    controller.start();
    quotas.put({ metadata: { name: 'q', namespace: 'ns', resourceVersion: '1' }, spec: { hard: { pods: '5', 'requests.cpu': '1', 'count/deployments.apps': '2', 'count/nothere': '1' } } } as KubeObject);
    await controller.idle();
    assert.deepEqual(writes.at(-1)?.status, {
      hard: { pods: '5', 'requests.cpu': '1', 'count/deployments.apps': '2', 'count/nothere': '1' },
      used: { pods: '2', 'requests.cpu': '200m', 'count/deployments.apps': '1' },
    });
    const n = writes.length;
    pods.remove(pod('a', 'ns'));
    await controller.idle();
    assert.deepEqual(writes.at(-1)?.status?.used, { pods: '1', 'requests.cpu': '100m', 'count/deployments.apps': '1' });
    pods.put(pod('b', 'ns', { status: { phase: 'Succeeded' } }));
    await controller.idle();
    assert.deepEqual(writes.at(-1)?.status?.used, { pods: '0', 'requests.cpu': '0', 'count/deployments.apps': '1' });
    assert.equal(writes.length, n + 2);
    // a quota in another namespace is not touched by these deletes; an unchanged recount writes nothing
    pods.remove(pod('other', 'elsewhere'));
    await controller.idle();
    assert.equal(writes.length, n + 2);
    controller.stop();
  });

  it('counts only the pods in the quota scopes', async () => {
    const { controller, writes, quotas, informer } = setup();
    const pods = informer('', 'pods');
    pods.put(pod('burst', 'ns'));
    pods.put({ metadata: { name: 'be', namespace: 'ns' }, spec: { containers: [{ name: 'c' }] } } as KubeObject);
    controller.start();
    quotas.put({ metadata: { name: 'be', namespace: 'ns', resourceVersion: '1' }, spec: { hard: { pods: '5' }, scopes: ['BestEffort'] } } as KubeObject);
    await controller.idle();
    assert.deepEqual(writes.at(-1)?.status?.used, { pods: '1' });
    controller.stop();
  });
  it('omits an empty used list, as kube omitempty does', async () => {
    const { controller, writes, quotas } = setup();
    controller.start();
    quotas.put({ metadata: { name: 'odd', namespace: 'ns', resourceVersion: '1' }, spec: { hard: { 'example.com/unknown': '1' } } } as KubeObject);
    await controller.idle();
    assert.deepEqual(writes.map((w) => w.status), [{ hard: { 'example.com/unknown': '1' } }]);
    controller.stop();
  });
});

describe('quota controller helpers', () => {
  it('recounts on updates that stop a pod counting or change a service type', () => {
    const running = pod('a', 'ns');
    assert.equal(updateNeedsReplenish('', 'pods', running, pod('a', 'ns', { status: { phase: 'Failed' } })), true);
    assert.equal(updateNeedsReplenish('', 'pods', running, running), false);
    const svc = (type: string) => ({ metadata: { name: 's' }, spec: { type } }) as KubeObject;
    assert.equal(updateNeedsReplenish('', 'services', svc('LoadBalancer'), svc('ClusterIP')), true);
    assert.equal(updateNeedsReplenish('', 'services', svc('ClusterIP'), svc('ExternalName')), false);
    assert.equal(updateNeedsReplenish('apps', 'deployments', svc('a'), svc('b')), false);
  });

  it('the work queue never runs a key twice at once and retries failures', async () => {
    const running = new Set<string>();
    const seen: string[] = [];
    let failOnce = true;
    const q = new WorkQueue(
      async (key) => {
        assert.equal(running.has(key), false);
        running.add(key);
        seen.push(key);
        await new Promise((r) => setTimeout(r, 5));
        running.delete(key);
        if (key === 'bad' && failOnce) {
          failOnce = false;
          throw new Error('boom');
        }
      },
      () => undefined,
      2,
    );
    q.add('a');
    q.add('a'); // 'a' is running: it runs once more afterwards, never beside itself
    q.add('b');
    q.add('b');
    q.add('bad');
    await q.idle();
    await new Promise((r) => setTimeout(r, 30)); // past the first retry delay (10 ms)
    await q.idle();
    assert.deepEqual(seen.filter((k) => k === 'a').length, 2);
    assert.deepEqual(seen.filter((k) => k === 'b').length, 2);
    assert.deepEqual(seen.filter((k) => k === 'bad').length, 2);
    q.stop();
  });
});
