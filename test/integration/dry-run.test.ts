/**
 * dryRun=All on every write: the answer is what would have been stored, with the normal status
 * code, and no key in etcd changes (but those the server's timers write).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { useServer } from '../support/server.js';

// Checks that dry runs leave etcd's revision alone: without the publisher that writes into every
// namespace, and once the default namespace has its service account (pods need it).
const fx = useServer({}, ['--controllers=*,-root-ca-cert-publisher']);
let client: Etcd3 | undefined;
after(() => client?.close());
/** Waits for ns's default service account: its creation would move the revision. */
async function defaultAccount(ns: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await fx.request('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status !== 200) {
    if (Date.now() > deadline) throw new Error(`no default service account in ${ns}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * etcd's keys with their mod revisions, except those the server's own loops write on a timer (its
 * identity and endpoint leases, events): a dry run must change none of the rest.
 */
async function revision(): Promise<string> {
  client ??= new Etcd3({ hosts: fx.etcd.endpoint });
  const res = await client.kv.range({ key: Buffer.from('\0'), range_end: Buffer.from('\0'), keys_only: true });
  return res.kvs
    .map((kv) => `${kv.key.toString('utf8')}@${kv.mod_revision}`)
    .filter((k) => !/^\/registry\/(leases|masterleases|events)\//.test(k))
    .sort()
    .join('\n');
}

/** Runs req and asserts etcd's keys and their revisions are the same before and after. */
async function unchanged<T>(req: () => Promise<T>): Promise<T> {
  const before = await revision();
  const out = await req();
  assert.equal(await revision(), before, 'etcd keys and revisions unchanged');
  return out;
}

const cms = '/api/v1/namespaces/default/configmaps';
const merge = { 'content-type': 'application/merge-patch+json' };

describe('dry run', () => {
  before(() => defaultAccount('default'));

  it('create, update, patches, delete and deletecollection write nothing', async () => {
    const created = await unchanged(() => fx.request('POST', `${cms}?dryRun=All`, { body: { metadata: { name: 'dry' }, data: { a: '1' } } }));
    assert.equal(created.status, 201);
    assert.equal(created.json().metadata.name, 'dry');
    assert.ok(created.json().metadata.uid);
    assert.equal((await fx.request('GET', `${cms}/dry`)).status, 404);

    const real = (await fx.request('POST', cms, { body: { metadata: { name: 'real', labels: { dry: 'yes' } }, data: { a: '1' } } })).json();
    const put = await unchanged(() => fx.request('PUT', `${cms}/real?dryRun=All`, { body: { ...real, data: { a: '2' } } }));
    assert.equal(put.status, 200);
    assert.deepEqual(put.json().data, { a: '2' });
    const mp = await unchanged(() => fx.request('PATCH', `${cms}/real?dryRun=All`, { rawBody: '{"data":{"b":"3"}}', headers: merge }));
    assert.deepEqual(mp.json().data, { a: '1', b: '3' });
    const jp = await unchanged(() =>
      fx.request('PATCH', `${cms}/real?dryRun=All`, { rawBody: '[{"op":"add","path":"/data/c","value":"4"}]', headers: { 'content-type': 'application/json-patch+json' } }),
    );
    assert.deepEqual(jp.json().data, { a: '1', c: '4' });
    const del = await unchanged(() => fx.request('DELETE', `${cms}/real?dryRun=All`));
    assert.equal(del.status, 200);
    const delBody = await unchanged(() => fx.request('DELETE', `${cms}/real`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] } }));
    assert.equal(delBody.status, 200);
    const coll = await unchanged(() => fx.request('DELETE', `${cms}?labelSelector=dry%3Dyes&dryRun=All`));
    assert.equal(coll.status, 200);
    assert.equal(coll.json().items.length, 1);
    const still = (await fx.request('GET', `${cms}/real`)).json();
    assert.deepEqual(still.data, { a: '1' });
    assert.equal(still.metadata.resourceVersion, real.metadata.resourceVersion);
  });

  it('finalizers, graceful pods, namespaces, services, status and scale write nothing either', async () => {
    await fx.request('POST', cms, { body: { metadata: { name: 'held', finalizers: ['example.com/x'] } } });
    const marked = await unchanged(() => fx.request('DELETE', `${cms}/held?dryRun=All`));
    assert.ok(marked.json().metadata.deletionTimestamp, 'the answer shows the object marked');
    assert.equal((await fx.request('GET', `${cms}/held`)).json().metadata.deletionTimestamp, undefined);

    const pods = '/api/v1/namespaces/default/pods';
    await fx.request('POST', pods, { body: { metadata: { name: 'p' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] } } });
    const graceful = await unchanged(() => fx.request('DELETE', `${pods}/p?dryRun=All`));
    assert.equal(graceful.json().metadata.deletionGracePeriodSeconds, 30);
    const status = await unchanged(() => fx.request('PATCH', `${pods}/p/status?dryRun=All`, { rawBody: '{"status":{"phase":"Running"}}', headers: merge }));
    assert.equal(status.json().status.phase, 'Running');

    await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'dry-ns' } } });
    await defaultAccount('dry-ns');
    const nsDel = await unchanged(() => fx.request('DELETE', '/api/v1/namespaces/dry-ns?dryRun=All'));
    assert.equal(nsDel.json().status.phase, 'Terminating');
    assert.equal((await fx.request('GET', '/api/v1/namespaces/dry-ns')).json().status.phase, 'Active');

    const svc = await unchanged(() =>
      fx.request('POST', '/api/v1/namespaces/default/services?dryRun=All', { body: { metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } } }),
    );
    assert.match(svc.json().spec.clusterIP, /^10\.0\.0\./, 'an address is shown but not reserved');

    const deploys = '/apis/apps/v1/namespaces/default/deployments';
    await fx.request('POST', deploys, {
      body: { metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } },
    });
    const scale = await unchanged(() => fx.request('PATCH', `${deploys}/d/scale?dryRun=All`, { rawBody: '{"spec":{"replicas":5}}', headers: merge }));
    assert.equal(scale.json().spec.replicas, 5);
    assert.equal((await fx.request('GET', `${deploys}/d`)).json().spec.replicas, 1);
  });

  it('any other dryRun value is refused', async () => {
    const res = await unchanged(() => fx.request('POST', `${cms}?dryRun=Yes`, { body: { metadata: { name: 'x' } } }));
    assert.equal(res.status, 422);
    assert.equal(res.json().message, 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Yes"}: supported values: "All"');
    const del = await unchanged(() => fx.request('DELETE', `${cms}/held?dryRun=Maybe`));
    assert.equal(del.status, 422);
  });
});
