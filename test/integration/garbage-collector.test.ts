/**
 * The garbage collector inside the API server: Foreground, Orphan and Background deletion of a
 * Deployment with ReplicaSets it owns, a dependent whose owner never existed, a chain of three,
 * and the invalid-namespace rule (an OwnerRefInvalidNamespace Warning event).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer, type ServerFixture } from '../support/server.js';

const fx = useServer();
const ns = 'default';
const deployments = `/apis/apps/v1/namespaces/${ns}/deployments`;
const replicasets = `/apis/apps/v1/namespaces/${ns}/replicasets`;
const configmaps = `/api/v1/namespaces/${ns}/configmaps`;

const labels = { app: 'web' };
const template = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

async function create(f: ServerFixture, path: string, body: unknown): Promise<any> {
  const res = await f.request('POST', path, { body });
  assert.equal(res.status, 201, res.text);
  return res.json();
}

function ownerRef(owner: any, kind: string, apiVersion: string, block = true): unknown {
  return { apiVersion, kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true, blockOwnerDeletion: block };
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

const status = async (path: string): Promise<number> => (await fx.request('GET', path)).status;

/** A Deployment and two ReplicaSets it owns (blockOwnerDeletion), named after prefix. */
async function deploymentWithReplicaSets(prefix: string): Promise<{ deployment: any; sets: string[] }> {
  const deployment = await create(fx, deployments, { metadata: { name: prefix }, spec: { replicas: 1, selector: { matchLabels: labels }, template } });
  const sets: string[] = [];
  for (const n of [1, 2]) {
    const rs = await create(fx, replicasets, {
      metadata: { name: `${prefix}-${n}`, ownerReferences: [ownerRef(deployment, 'Deployment', 'apps/v1')] },
      spec: { replicas: 0, selector: { matchLabels: labels }, template },
    });
    sets.push(rs.metadata.name);
  }
  // The collector learns of the ReplicaSets through its informers; give the watch a moment.
  await new Promise((r) => setTimeout(r, 300));
  return { deployment, sets };
}

describe('garbage collector', () => {
  it('Foreground: the ReplicaSets go before the Deployment does', async () => {
    const { sets } = await deploymentWithReplicaSets('fg');
    const del = await fx.request('DELETE', `${deployments}/fg`, { body: { propagationPolicy: 'Foreground' } });
    assert.equal(del.status, 200, del.text);
    assert.ok(del.json().metadata.finalizers.includes('foregroundDeletion'));
    // Once the Deployment is gone, no ReplicaSet is left (read in that order).
    await waitFor('the deployment to go', async () => {
      const dep = await status(`${deployments}/fg`);
      const left = await Promise.all(sets.map((s) => status(`${replicasets}/${s}`)));
      if (dep === 404) assert.deepEqual(left, [404, 404], 'the deployment outlives its replicasets');
      return dep === 404;
    });
    for (const s of sets) assert.equal(await status(`${replicasets}/${s}`), 404);
  });

  it('Orphan: the ReplicaSets stay, without the owner reference', async () => {
    const { sets } = await deploymentWithReplicaSets('orphan');
    const del = await fx.request('DELETE', `${deployments}/orphan`, { body: { propagationPolicy: 'Orphan' } });
    assert.equal(del.status, 200, del.text);
    await waitFor('the deployment to go', async () => (await status(`${deployments}/orphan`)) === 404);
    for (const s of sets) {
      const rs = (await fx.request('GET', `${replicasets}/${s}`)).json();
      assert.equal(rs.metadata.ownerReferences, undefined, `${s} keeps no owner reference`);
    }
    await new Promise((r) => setTimeout(r, 300));
    for (const s of sets) assert.equal(await status(`${replicasets}/${s}`), 200);
  });

  it('Background: the Deployment goes at once, the ReplicaSets after', async () => {
    const { sets } = await deploymentWithReplicaSets('bg');
    const del = await fx.request('DELETE', `${deployments}/bg`, { body: { propagationPolicy: 'Background' } });
    assert.equal(del.status, 200, del.text);
    assert.equal(await status(`${deployments}/bg`), 404);
    await waitFor('the replicasets to go', async () => (await Promise.all(sets.map((s) => status(`${replicasets}/${s}`)))).every((s) => s === 404));
  });

  it('deletes a dependent whose owner does not exist, or is another object of that name', async () => {
    await create(fx, configmaps, {
      metadata: { name: 'dangling', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'never-was', uid: 'a0b1c2d3-0000-4000-8000-000000000001' }] },
    });
    const real = await create(fx, configmaps, { metadata: { name: 'real-owner' } });
    await create(fx, configmaps, {
      metadata: { name: 'uid-mismatch', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'real-owner', uid: 'a0b1c2d3-0000-4000-8000-000000000002' }] },
    });
    const kept = await create(fx, configmaps, {
      metadata: { name: 'kept', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'real-owner', uid: real.metadata.uid }] },
    });
    await waitFor('the dangling dependents to go', async () => (await status(`${configmaps}/dangling`)) === 404 && (await status(`${configmaps}/uid-mismatch`)) === 404);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(await status(`${configmaps}/kept`), 200, `${kept.metadata.name} has a live owner`);
  });

  it('a chain of three goes in foreground, leaf first', async () => {
    const a = await create(fx, configmaps, { metadata: { name: 'chain-a' } });
    const b = await create(fx, configmaps, { metadata: { name: 'chain-b', ownerReferences: [ownerRef(a, 'ConfigMap', 'v1')] } });
    await create(fx, configmaps, { metadata: { name: 'chain-c', ownerReferences: [ownerRef(b, 'ConfigMap', 'v1')] } });
    await new Promise((r) => setTimeout(r, 300));
    const del = await fx.request('DELETE', `${configmaps}/chain-a`, { body: { propagationPolicy: 'Foreground' } });
    assert.equal(del.status, 200, del.text);
    await waitFor('the whole chain to go', async () => {
      const [sa, sb, sc] = [await status(`${configmaps}/chain-a`), await status(`${configmaps}/chain-b`), await status(`${configmaps}/chain-c`)];
      // An owner never goes before a blocking dependent.
      if (sa === 404) assert.equal(sb, 404);
      if (sb === 404) assert.equal(sc, 404);
      return sa === 404;
    });
  });

  it('a chain of three goes in background, one link after the other', async () => {
    const a = await create(fx, configmaps, { metadata: { name: 'bchain-a' } });
    const b = await create(fx, configmaps, { metadata: { name: 'bchain-b', ownerReferences: [ownerRef(a, 'ConfigMap', 'v1', false)] } });
    await create(fx, configmaps, { metadata: { name: 'bchain-c', ownerReferences: [ownerRef(b, 'ConfigMap', 'v1', false)] } });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await fx.request('DELETE', `${configmaps}/bchain-a`)).status, 200);
    await waitFor('the chain to go', async () => (await status(`${configmaps}/bchain-b`)) === 404 && (await status(`${configmaps}/bchain-c`)) === 404);
  });

  it('a cluster-scoped dependent of a namespaced owner is kept and reported', async () => {
    const owner = await create(fx, configmaps, { metadata: { name: 'ns-owner' } });
    await create(fx, '/api/v1/namespaces', {
      metadata: { name: 'gc-invalid-owner', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ns-owner', uid: owner.metadata.uid }] },
    });
    let event: any;
    await waitFor('the OwnerRefInvalidNamespace event', async () => {
      const list = (await fx.request('GET', '/api/v1/namespaces/default/events?fieldSelector=reason%3DOwnerRefInvalidNamespace')).json();
      event = list.items.find((e: any) => e.involvedObject.name === 'gc-invalid-owner');
      return Boolean(event);
    });
    assert.equal(event.type, 'Warning');
    assert.equal(event.involvedObject.kind, 'Namespace');
    assert.equal(event.source.component, 'garbage-collector-controller');
    assert.equal(event.message, `ownerRef [v1/ConfigMap, namespace: , name: ns-owner, uid: ${owner.metadata.uid}] does not exist in namespace ""`);
    await new Promise((r) => setTimeout(r, 300));
    const kept = (await fx.request('GET', '/api/v1/namespaces/gc-invalid-owner')).json();
    assert.equal(kept.metadata.deletionTimestamp, undefined, 'not deleted');
    assert.equal(kept.status.phase, 'Active');
    const again = (await fx.request('GET', '/api/v1/namespaces/default/events?fieldSelector=reason%3DOwnerRefInvalidNamespace')).json();
    assert.equal(again.items.filter((e: any) => e.involvedObject.name === 'gc-invalid-owner').length, 1, 'reported once');
  });

  it('a namespaced dependent of an owner in another namespace is deleted', async () => {
    assert.equal((await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'gc-other' } } })).status, 201);
    const owner = await create(fx, '/api/v1/namespaces/gc-other/configmaps', { metadata: { name: 'elsewhere' } });
    await create(fx, configmaps, { metadata: { name: 'cross-ns', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'elsewhere', uid: owner.metadata.uid }] } });
    await waitFor('the cross-namespace dependent to go', async () => (await status(`${configmaps}/cross-ns`)) === 404);
    assert.equal(await status('/api/v1/namespaces/gc-other/configmaps/elsewhere'), 200);
    const events = (await fx.request('GET', '/api/v1/namespaces/default/events?fieldSelector=reason%3DOwnerRefInvalidNamespace')).json();
    const event = events.items.find((e: any) => e.involvedObject.name === 'cross-ns');
    assert.equal(event?.message, `ownerRef [v1/ConfigMap, namespace: default, name: elsewhere, uid: ${owner.metadata.uid}] does not exist in namespace "default"`);
  });
});
