/**
 * --feature-gates switches what the server does: each gate Capstan reads, set away from kube
 * 1.33's default, changes its behaviour (the defaults are covered by the tests of each feature),
 * and kubernetes_feature_enabled reports every gate.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePromText, samplesOf, sumOf } from '../support/prom-text.js';
import { useServer } from '../support/server.js';

const fx = useServer({}, [
  '--feature-gates=APIResponseCompression=false,StorageVersionHash=false',
  '--feature-gates=kube:APIServerIdentity=false,ConsistentListFromCache=false,PodTopologyLabelsAdmission=true,OrderedNamespaceDeletion=false',
]);

const cms = '/api/v1/namespaces/default/configmaps';

async function metrics(): Promise<ReturnType<typeof parsePromText>> {
  const res = await fx.request('GET', '/metrics');
  assert.equal(res.status, 200);
  return parsePromText(res.text);
}

describe('feature gates', () => {
  it('APIResponseCompression=false: a list of 128 KiB and more is not gzipped though the client accepts gzip', async () => {
    const big = 'x'.repeat(100 * 1024);
    for (const name of ['big-a', 'big-b']) {
      const res = await fx.request('POST', cms, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { size: 'big' } }, data: { v: big } } });
      assert.equal(res.status, 201, res.text);
    }
    const list = await fx.request('GET', `${cms}?labelSelector=size%3Dbig`, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(list.status, 200);
    assert.equal(list.headers['content-encoding'], undefined);
    assert.ok(list.body.length >= 200 * 1024);
    assert.equal(list.json().items.length, 2);
  });

  it('WatchList off (kube 1.33 default): sendInitialEvents on a watch is refused as kube refuses it', async () => {
    const res = await fx.request('GET', `${cms}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    assert.equal(res.status, 422);
    const status = res.json();
    assert.equal(status.reason, 'Invalid');
    assert.equal(status.message, 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled');
    assert.deepEqual(status.details.causes, [{ reason: 'FieldValueForbidden', message: 'Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled', field: 'sendInitialEvents' }]);
  });

  it('StorageVersionHash=false: discovery resource lists carry no storageVersionHash', async () => {
    const core = (await fx.request('GET', '/api/v1')).json();
    const pods = core.resources.find((r: { name: string }) => r.name === 'pods');
    assert.ok(pods);
    assert.equal(pods.storageVersionHash, undefined);
    const apps = (await fx.request('GET', '/apis/apps/v1')).json();
    assert.ok(apps.resources.every((r: { storageVersionHash?: string }) => r.storageVersionHash === undefined));
  });

  it('APIServerIdentity=false: no identity Lease is kept in kube-system', async () => {
    await new Promise((r) => setTimeout(r, 1500));
    const leases = await fx.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?labelSelector=apiserver.kubernetes.io%2Fidentity%3Dkube-apiserver');
    assert.equal(leases.status, 200);
    assert.deepEqual(leases.json().items, []);
  });

  it('ConsistentListFromCache=false: a list at the most recent version reads etcd', async () => {
    const before = await metrics();
    for (let i = 0; i < 4; i++) assert.equal((await fx.request('GET', cms)).status, 200);
    const after = await metrics();
    const etcdLists = (t: ReturnType<typeof parsePromText>): number =>
      samplesOf(t, 'etcd_requests_total', { operation: 'list' })
        .filter((s) => (s.labels.type ?? '').includes('configmaps'))
        .reduce((a, s) => a + s.value, 0);
    assert.ok(etcdLists(after) - etcdLists(before) >= 4, `etcd lists of configmaps: ${etcdLists(before)} -> ${etcdLists(after)}`);
    // A list from the cache ("0") still does not.
    const mid = await metrics();
    for (let i = 0; i < 4; i++) assert.equal((await fx.request('GET', `${cms}?resourceVersion=0`)).status, 200);
    assert.equal(etcdLists(await metrics()) - etcdLists(mid), 0);
  });

  it('PodTopologyLabelsAdmission=true: a pod created on a node gets its zone and region labels', async () => {
    const node = await fx.request('POST', '/api/v1/nodes', {
      body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'zoned', labels: { 'topology.kubernetes.io/zone': 'z1', 'topology.kubernetes.io/region': 'r1' } } },
    });
    assert.equal(node.status, 201, node.text);
    let pod;
    for (let i = 0; i < 50; i++) {
      pod = await fx.request('POST', '/api/v1/namespaces/default/pods', {
        body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: `placed-${i}` }, spec: { nodeName: 'zoned', containers: [{ name: 'c', image: 'busybox' }] } },
      });
      assert.equal(pod.status, 201, pod.text);
      if (pod.json().metadata.labels?.['topology.kubernetes.io/zone']) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const labels = pod?.json().metadata.labels;
    assert.equal(labels['topology.kubernetes.io/zone'], 'z1');
    assert.equal(labels['topology.kubernetes.io/region'], 'r1');
  });

  it('PodLevelResources off (kube 1.33 default): spec.resources of a pod is dropped on create', async () => {
    const res = await fx.request('POST', '/api/v1/namespaces/default/pods', {
      body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pod-level' }, spec: { resources: { limits: { cpu: '1' } }, containers: [{ name: 'c', image: 'busybox' }] } },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json().spec.resources, undefined);
  });

  it('OrderedNamespaceDeletion=false: a deleted namespace loses its config maps while a pod remains', async () => {
    const ns = 'unordered';
    assert.equal((await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status, 201);
    const pod = { metadata: { name: 'held', finalizers: ['example.com/hold'] }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
    assert.equal((await fx.request('POST', `/api/v1/namespaces/${ns}/pods`, { body: pod })).status, 201);
    assert.equal((await fx.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name: 'gone' } } })).status, 201);
    assert.equal((await fx.request('DELETE', `/api/v1/namespaces/${ns}`)).status, 200);
    const deadline = Date.now() + 15_000;
    while ((await fx.request('GET', `/api/v1/namespaces/${ns}/configmaps/gone`)).status !== 404) {
      assert.ok(Date.now() < deadline, 'the config map was not deleted while the pod remained');
      await new Promise((r) => setTimeout(r, 100));
    }
    // The pod is deleted in the same pass (in whatever order the resources come) and stays, held.
    while (!(await fx.request('GET', `/api/v1/namespaces/${ns}/pods/held`)).json().metadata.deletionTimestamp) {
      assert.ok(Date.now() < deadline, 'the pod was not marked for deletion');
      await new Promise((r) => setTimeout(r, 100));
    }
    const release = await fx.request('PATCH', `/api/v1/namespaces/${ns}/pods/held`, {
      rawBody: '{"metadata":{"finalizers":null}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(release.status, 200);
  });

  it('kubernetes_feature_enabled reports every gate with its stage and value', async () => {
    const t = await metrics();
    const value = (name: string, stage: string): number => sumOf(t, 'kubernetes_feature_enabled', { name, stage });
    assert.equal(samplesOf(t, 'kubernetes_feature_enabled', { name: 'APIResponseCompression', stage: 'BETA' }).length, 1);
    assert.equal(value('APIResponseCompression', 'BETA'), 0);
    assert.equal(value('PodTopologyLabelsAdmission', 'ALPHA'), 1);
    assert.equal(value('WatchList', 'BETA'), 0);
    assert.equal(value('CRDValidationRatcheting', ''), 1);
    assert.equal(samplesOf(t, 'kubernetes_feature_enabled', { name: 'AllAlpha', stage: 'ALPHA' }).length, 1);
    assert.equal(value('KMSv1', 'DEPRECATED'), 0);
    const res = await fx.request('GET', '/metrics');
    assert.match(res.text, /# HELP kubernetes_feature_enabled \[BETA\] This metric records the data about the stage and enablement of a k8s feature\./);
  });
});
