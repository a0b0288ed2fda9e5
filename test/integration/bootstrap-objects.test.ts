/**
 * The objects kube-apiserver creates at start (system PriorityClasses, the APF mandatory and
 * suggested configuration) and the ensurer's update rules across a restart; deletecollection with
 * --delete-collection-workers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';

const fx = useServer({}, ['--delete-collection-workers=3']);
const fc = '/apis/flowcontrol.apiserver.k8s.io/v1';
const merge = { 'content-type': 'application/merge-patch+json' };

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

const names = async (path: string): Promise<string[]> => ((await fx.request('GET', path)).json().items as any[]).map((i) => i.metadata.name).sort();

describe('bootstrap objects', () => {
  it('creates the system PriorityClasses', async () => {
    await waitFor('the priority classes', async () => (await names('/apis/scheduling.k8s.io/v1/priorityclasses')).length >= 2);
    const node = (await fx.request('GET', '/apis/scheduling.k8s.io/v1/priorityclasses/system-node-critical')).json();
    assert.equal(node.value, 2000001000);
    assert.equal(node.description, 'Used for system critical pods that must not be moved from their current node.');
    const cluster = (await fx.request('GET', '/apis/scheduling.k8s.io/v1/priorityclasses/system-cluster-critical')).json();
    assert.equal(cluster.value, 2000000000);
    assert.equal(cluster.description, 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.');
    assert.equal(cluster.preemptionPolicy, 'PreemptLowerPriority');
  });

  it('creates the mandatory and suggested APF configuration', async () => {
    const levels = ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low'];
    const schemas = ['catch-all', 'endpoint-controller', 'exempt', 'global-default', 'kube-controller-manager', 'kube-scheduler', 'kube-system-service-accounts', 'probes', 'service-accounts', 'system-leader-election', 'system-node-high', 'system-nodes', 'workload-leader-election'];
    await waitFor('the APF objects', async () => (await names(`${fc}/flowschemas`)).length === schemas.length && (await names(`${fc}/prioritylevelconfigurations`)).length === levels.length);
    assert.deepEqual(await names(`${fc}/prioritylevelconfigurations`), levels);
    assert.deepEqual(await names(`${fc}/flowschemas`), schemas);
    const exempt = (await fx.request('GET', `${fc}/flowschemas/exempt`)).json();
    assert.equal(exempt.metadata.annotations['apf.kubernetes.io/autoupdate-spec'], 'true');
    assert.equal(exempt.spec.matchingPrecedence, 1);
    assert.deepEqual(exempt.spec.rules[0].subjects, [{ kind: 'Group', group: { name: 'system:masters' } }]);
    const catchAll = (await fx.request('GET', `${fc}/prioritylevelconfigurations/catch-all`)).json();
    assert.deepEqual(catchAll.spec, { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } });
  });

  it('after a restart: mandatory specs are put back, suggested ones only while auto-updated, missing ones re-created', async () => {
    const patch = (path: string, body: unknown) => fx.request('PATCH', path, { rawBody: JSON.stringify(body), headers: merge });
    assert.equal((await patch(`${fc}/flowschemas/catch-all`, { spec: { matchingPrecedence: 9999 } })).status, 200);
    assert.equal((await patch(`${fc}/flowschemas/service-accounts`, { metadata: { annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' } }, spec: { matchingPrecedence: 8000 } })).status, 200);
    assert.equal((await patch(`${fc}/flowschemas/kube-scheduler`, { spec: { matchingPrecedence: 700 } })).status, 200);
    assert.equal((await fx.request('DELETE', `${fc}/flowschemas/global-default`)).status, 200);
    assert.equal((await fx.request('POST', `${fc}/flowschemas`, { body: { metadata: { name: 'retired', annotations: { 'apf.kubernetes.io/autoupdate-spec': 'true' } }, spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 5000 } } })).status, 201);
    await fx.restart();
    const precedence = async (name: string): Promise<number | undefined> => (await fx.request('GET', `${fc}/flowschemas/${name}`)).json().spec?.matchingPrecedence;
    await waitFor('the ensurer', async () => (await precedence('catch-all')) === 10000 && (await precedence('global-default')) === 9900);
    assert.equal(await precedence('service-accounts'), 8000, 'auto-update off: kept');
    // kube-scheduler was changed through the API (generation 2) but still says autoupdate "true".
    assert.equal(await precedence('kube-scheduler'), 800);
    await waitFor('the retired schema to go', async () => (await fx.request('GET', `${fc}/flowschemas/retired`)).status === 404);
  });
});

describe('deletecollection with --delete-collection-workers=3', () => {
  it('deletes every selected object', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    for (let i = 0; i < 15; i++) {
      assert.equal((await fx.request('POST', cms, { body: { metadata: { name: `dc-${i}`, labels: { batch: i < 10 ? 'x' : 'y' } } } })).status, 201);
    }
    const res = await fx.request('DELETE', `${cms}?labelSelector=batch%3Dx`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json().items.length, 10);
    assert.deepEqual((await names(`${cms}?labelSelector=batch`)).length, 5);
  });
});
