/**
 * Namespace lifecycle: a deleted namespace turns Terminating, refuses new content, has its
 * content deleted (waiting for finalizers), and is removed once empty.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';

const fx = useServer();

async function eventually<T>(fn: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('namespace deletion', () => {
  it('Terminating refuses new objects, waits for finalizers, then removes the namespace', async () => {
    assert.equal((await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'doomed' } } })).status, 201);
    const base = '/api/v1/namespaces/doomed/configmaps';
    assert.equal((await fx.request('POST', base, { body: { metadata: { name: 'plain' } } })).status, 201);
    assert.equal((await fx.request('POST', base, { body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } } })).status, 201);
    assert.equal((await fx.request('POST', '/api/v1/namespaces/doomed/secrets', { body: { metadata: { name: 's' }, stringData: { a: 'b' } } })).status, 201);

    const del = await fx.request('DELETE', '/api/v1/namespaces/doomed');
    assert.equal(del.status, 200);
    const ns = del.json();
    assert.equal(ns.kind, 'Namespace');
    assert.equal(ns.status.phase, 'Terminating');
    assert.ok(ns.metadata.deletionTimestamp);

    const refused = await fx.request('POST', base, { body: { metadata: { name: 'late' } } });
    assert.equal(refused.status, 403);
    const s = refused.json();
    assert.equal(s.reason, 'Forbidden');
    assert.equal(s.message, 'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated');
    assert.deepEqual(s.details.causes, [{ reason: 'NamespaceTerminating', message: 'namespace doomed is being terminated', field: 'metadata.namespace' }]);

    // Everything without a finalizer goes; the held object stays, marked, and the namespace waits.
    await eventually(async () => ((await fx.request('GET', `${base}/plain`)).status === 404 ? true : undefined));
    await eventually(async () => ((await fx.request('GET', '/api/v1/namespaces/doomed/secrets/s')).status === 404 ? true : undefined));
    const held = (await fx.request('GET', `${base}/held`)).json();
    assert.ok(held.metadata.deletionTimestamp);
    const waiting = await eventually(async () => {
      const n = (await fx.request('GET', '/api/v1/namespaces/doomed')).json();
      const cond = (n.status.conditions ?? []).find((c: any) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True');
      return cond ? n : undefined;
    });
    assert.deepEqual(waiting.spec.finalizers, ['kubernetes']);
    const remaining = waiting.status.conditions.find((c: any) => c.type === 'NamespaceContentRemaining');
    assert.equal(remaining.status, 'True');
    assert.match(remaining.message, /configmaps\. has 1 resource instances/);

    // A second delete changes nothing while it is terminating.
    const again = await fx.request('DELETE', '/api/v1/namespaces/doomed');
    assert.equal(again.status, 200);
    assert.equal(again.json().metadata.deletionTimestamp, ns.metadata.deletionTimestamp);

    const release = await fx.request('PATCH', `${base}/held`, {
      rawBody: '{"metadata":{"finalizers":null}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(release.status, 200);
    await eventually(async () => ((await fx.request('GET', '/api/v1/namespaces/doomed')).status === 404 ? true : undefined), 40_000);
  });

  it('OrderedNamespaceDeletion (kube 1.33: on): nothing else goes while a pod remains', async () => {
    const ns = 'ordered';
    assert.equal((await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status, 201);
    const pod = { metadata: { name: 'held', finalizers: ['example.com/hold'] }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
    assert.equal((await fx.request('POST', `/api/v1/namespaces/${ns}/pods`, { body: pod })).status, 201);
    assert.equal((await fx.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name: 'kept' } } })).status, 201);
    assert.equal((await fx.request('DELETE', `/api/v1/namespaces/${ns}`)).status, 200);
    // The pod is marked for deletion and held by its finalizer: the config map stays meanwhile.
    const remaining = await eventually(async () => {
      const n = (await fx.request('GET', `/api/v1/namespaces/${ns}`)).json();
      return (n.status.conditions ?? []).find((c: any) => c.type === 'NamespaceContentRemaining' && c.status === 'True');
    });
    assert.equal(remaining.message, 'Some resources are remaining: pods. has 1 resource instances');
    assert.ok((await fx.request('GET', `/api/v1/namespaces/${ns}/pods/held`)).json().metadata.deletionTimestamp);
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal((await fx.request('GET', `/api/v1/namespaces/${ns}/configmaps/kept`)).status, 200);
    const release = await fx.request('PATCH', `/api/v1/namespaces/${ns}/pods/held`, {
      rawBody: '{"metadata":{"finalizers":null}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(release.status, 200);
    await eventually(async () => ((await fx.request('GET', `/api/v1/namespaces/${ns}`)).status === 404 ? true : undefined), 40_000);
  });

  it('namespaces/finalize changes only spec.finalizers', async () => {
    const created = (await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'fin' }, spec: { finalizers: ['example.com/a'] } } })).json();
    assert.deepEqual(created.spec.finalizers, ['example.com/a', 'kubernetes']);
    const viaMain = await fx.request('PUT', '/api/v1/namespaces/fin', { body: { ...created, spec: { finalizers: [] } } });
    assert.deepEqual(viaMain.json().spec.finalizers, ['example.com/a', 'kubernetes'], 'the main resource cannot change spec.finalizers');
    const current = viaMain.json() as Record<string, unknown>;
    const fin = await fx.request('PUT', '/api/v1/namespaces/fin/finalize', { body: { ...current, spec: { finalizers: ['kubernetes'] } } });
    assert.equal(fin.status, 200, fin.text);
    assert.deepEqual(fin.json().spec.finalizers, ['kubernetes']);
    const patch = await fx.request('PATCH', '/api/v1/namespaces/fin/finalize', { rawBody: '{}', headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(patch.status, 405);
  });
});
