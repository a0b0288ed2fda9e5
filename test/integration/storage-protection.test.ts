/**
 * StorageObjectInUseProtection and the protection controllers: a claim in use by a pod stays
 * Terminating until the pod goes; a volume that is not Bound goes at once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';

const fx = useServer();

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const claims = '/api/v1/namespaces/default/persistentvolumeclaims';
const pods = '/api/v1/namespaces/default/pods';

describe('storage object protection', () => {
  it('a claim used by a pod waits for the pod; an unused one goes', async () => {
    await eventually('default service account', async () => (await fx.request('GET', '/api/v1/namespaces/default/serviceaccounts/default')).status === 200);
    const claim = (name: string) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    const created = await fx.request('POST', claims, { body: claim('data') });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.json().metadata.finalizers, ['kubernetes.io/pvc-protection']);
    assert.equal((await fx.request('POST', claims, { body: claim('spare') })).status, 201);
    const pod = { metadata: { name: 'user' }, spec: { containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }] } };
    assert.equal((await fx.request('POST', pods, { body: pod })).status, 201);

    assert.equal((await fx.request('DELETE', `${claims}/spare`)).status, 200);
    await eventually('the unused claim to go', async () => (await fx.request('GET', `${claims}/spare`)).status === 404);

    assert.equal((await fx.request('DELETE', `${claims}/data`)).status, 200);
    await new Promise((r) => setTimeout(r, 500));
    const held = await fx.request('GET', `${claims}/data`);
    assert.equal(held.status, 200, 'in use: kept');
    assert.ok(held.json().metadata.deletionTimestamp);
    assert.equal((await fx.request('DELETE', `${pods}/user?gracePeriodSeconds=0`)).status, 200);
    await eventually('the claim to go after its pod', async () => (await fx.request('GET', `${claims}/data`)).status === 404);
  });

  it('a volume that is not Bound loses its finalizer and goes', async () => {
    const pv = { metadata: { name: 'pv1' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/pv1' } } };
    const created = await fx.request('POST', '/api/v1/persistentvolumes', { body: pv });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.json().metadata.finalizers, ['kubernetes.io/pv-protection']);
    assert.equal((await fx.request('DELETE', '/api/v1/persistentvolumes/pv1')).status, 200);
    await eventually('the volume to go', async () => (await fx.request('GET', '/api/v1/persistentvolumes/pv1')).status === 404);
  });
});
