/**
 * Simulated nodes against a real API server: 20 nodes register and renew their Leases, 100 pods
 * bound to them reach Running with pod IPs from their node's range, pods with a run duration end
 * Succeeded or Failed by their exit code and restart policy, and deleted pods are finished and gone.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiClient } from '../../internal/nodeagent/client/api-client.js';
import { defaultNodeAgentConfig } from '../../internal/nodeagent/options/defaults.js';
import { runSimulatedNodes, type SimulatedNodes } from '../../internal/nodeagent/simulated/run.js';
import { parseSimulationRules } from '../../internal/nodeagent/simulated/rules.js';
import { createLogger } from '../../internal/observability/logging.js';
import { waitUntil } from '../support/node-status-context.js';
import { useServer } from '../support/server.js';

const fx = useServer();

const waitFor = <T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 20_000) => waitUntil(what, fn, timeoutMs);

function pod(name: string, nodeName: string, extra: { annotations?: Record<string, string>; restartPolicy?: string; labels?: Record<string, string> } = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...(extra.annotations ? { annotations: extra.annotations } : {}), ...(extra.labels ? { labels: extra.labels } : {}) },
    spec: { nodeName, restartPolicy: extra.restartPolicy ?? 'Always', containers: [{ name: 'app', image: 'capstan.local/busybox:1' }] },
  };
}

describe('simulated nodes', () => {
  let sim: SimulatedNodes;
  let client: ApiClient;
  before(async () => {
    client = new ApiClient({ server: `https://127.0.0.1:${fx.port}`, ca: Buffer.from(fx.ca), tlsServerName: 'localhost' });
    const config = { ...defaultNodeAgentConfig(), nodeLeaseDurationSeconds: 4, nodeStatusUpdateFrequencyMs: 2_000 };
    const rules = parseSimulationRules('rules:\n- match: {namePrefix: job-}\n  runDuration: 1s\n  exitCode: 3\n');
    sim = runSimulatedNodes(config, () => client, createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1'), 20, { rules });
    await sim.registered;
  });
  after(async () => {
    await sim?.stop();
    client?.close();
  });

  it('registers 20 Ready nodes whose Leases are renewed', async () => {
    assert.equal(sim.nodeNames[0], 'sim-0');
    const nodes = (await fx.request('GET', '/api/v1/nodes')).json().items;
    assert.equal(nodes.length, 20);
    const n5 = nodes.find((n: { metadata: { name: string } }) => n.metadata.name === 'sim-5');
    assert.equal(n5.status.conditions.find((c: { type: string }) => c.type === 'Ready').status, 'True');
    assert.equal(n5.status.capacity.cpu, '4');
    assert.equal(n5.status.capacity.memory, '16Gi');
    assert.deepEqual(n5.status.addresses, [{ type: 'InternalIP', address: '172.16.0.6' }, { type: 'Hostname', address: 'sim-5' }]);
    const first = await waitFor<any>('sim-5 lease', async () => {
      const res = await fx.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/sim-5');
      return res.status === 200 ? res.json() : undefined;
    });
    assert.equal(first.spec.holderIdentity, 'sim-5');
    assert.equal(first.metadata.ownerReferences[0].uid, n5.metadata.uid);
    await waitFor('a renewal', async () => {
      const l = (await fx.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/sim-5')).json();
      return l.spec.renewTime > first.spec.renewTime ? true : undefined;
    }, 5_000);
    assert.ok(sim.leaseLatenciesMs.length >= 20);
    // Status updates every 2 s find nothing changed: the Node is not written again.
    const again = (await fx.request('GET', '/api/v1/nodes/sim-5')).json();
    assert.equal(again.metadata.resourceVersion, n5.metadata.resourceVersion);
  });

  it('runs 100 bound pods: Running with a pod IP of their node', async () => {
    for (let i = 0; i < 100; i++) {
      const res = await fx.request('POST', '/api/v1/namespaces/default/pods', { body: pod(`web-${i}`, `sim-${i % 20}`) });
      assert.equal(res.status, 201, res.text);
    }
    const pods = await waitFor('100 Running pods', async () => {
      const items = (await fx.request('GET', '/api/v1/namespaces/default/pods?labelSelector=')).json().items.filter((p: any) => p.metadata.name.startsWith('web-'));
      return items.filter((p: any) => p.status.phase === 'Running').length === 100 ? items : undefined;
    });
    const web7 = pods.find((p: any) => p.metadata.name === 'web-7');
    assert.match(web7.status.podIP, /^10\.128\.7\.\d+$/);
    assert.equal(web7.status.hostIP, '172.16.0.8');
    assert.equal(web7.status.containerStatuses[0].state.running !== undefined, true);
    assert.equal(web7.status.containerStatuses[0].ready, true);
    assert.equal(web7.status.conditions.find((c: any) => c.type === 'Ready').status, 'True');
    assert.equal(web7.status.qosClass, 'BestEffort');
    assert.equal(new Set(pods.map((p: any) => p.status.podIP)).size, 100);
  });

  it('ends pods by the rules and annotations, and finishes deletions', async () => {
    await fx.request('POST', '/api/v1/namespaces/default/pods', { body: pod('job-fail', 'sim-1', { restartPolicy: 'Never' }) });
    await fx.request('POST', '/api/v1/namespaces/default/pods', { body: pod('done', 'sim-2', { restartPolicy: 'OnFailure', annotations: { 'simulated.capstan.io/run-duration': '500ms' } }) });
    await fx.request('POST', '/api/v1/namespaces/default/pods', { body: pod('crash', 'sim-3', { annotations: { 'simulated.capstan.io/run-duration': '300ms', 'simulated.capstan.io/exit-code': '1' } }) });
    const failed = await waitFor('job-fail Failed', async () => {
      const p = (await fx.request('GET', '/api/v1/namespaces/default/pods/job-fail')).json();
      return p.status.phase === 'Failed' ? p : undefined;
    });
    assert.equal(failed.status.containerStatuses[0].state.terminated.exitCode, 3);
    assert.equal(failed.status.containerStatuses[0].state.terminated.reason, 'Error');
    assert.equal(failed.status.conditions.find((c: any) => c.type === 'Ready').reason, 'ContainersNotReady');
    await waitFor('done Succeeded', async () => ((await fx.request('GET', '/api/v1/namespaces/default/pods/done')).json().status.phase === 'Succeeded' ? true : undefined));
    const crash = await waitFor('crash restarted', async () => {
      const p = (await fx.request('GET', '/api/v1/namespaces/default/pods/crash')).json();
      return p.status.containerStatuses?.[0]?.restartCount >= 2 ? p : undefined;
    });
    assert.equal(crash.status.phase, 'Running');
    assert.equal(crash.status.containerStatuses[0].lastState.terminated.exitCode, 1);

    const del = await fx.request('DELETE', '/api/v1/namespaces/default/pods/web-3');
    assert.equal(del.status, 200, del.text);
    assert.ok(del.json().metadata.deletionTimestamp, 'the pod waits for its node');
    await waitFor('web-3 gone', async () => ((await fx.request('GET', '/api/v1/namespaces/default/pods/web-3')).status === 404 ? true : undefined));
  });

  it('a simulation started again adopts the Running pods and their addresses', async () => {
    const before = (await fx.request('GET', '/api/v1/namespaces/default/pods/web-7')).json();
    await sim.stop();
    sim = runSimulatedNodes({ ...defaultNodeAgentConfig(), nodeLeaseDurationSeconds: 4, nodeStatusUpdateFrequencyMs: 2_000 }, () => client, createLogger(0, true), 20);
    await sim.registered;
    await fx.request('POST', '/api/v1/namespaces/default/pods', { body: pod('late', 'sim-7') });
    const late = await waitFor<any>('late Running', async () => {
      const p = (await fx.request('GET', '/api/v1/namespaces/default/pods/late')).json();
      return p.status.phase === 'Running' ? p : undefined;
    });
    const onNode = (await fx.request('GET', '/api/v1/namespaces/default/pods?fieldSelector=spec.nodeName%3Dsim-7')).json().items;
    assert.equal(new Set(onNode.map((p: any) => p.status.podIP)).size, onNode.length, 'an address handed out twice');
    const after = (await fx.request('GET', '/api/v1/namespaces/default/pods/web-7')).json();
    assert.equal(after.status.podIP, before.status.podIP);
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion, 'a Running pod was started again');
    assert.match(late.status.podIP, /^10\.128\.7\./);
  });

  it('keeps renewing Leases after the API server was away', async () => {
    await fx.restart();
    const back = new Date().toISOString();
    await waitFor('a renewal after the restart', async () => {
      const l = (await fx.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/sim-9')).json();
      return l.spec.renewTime > back ? true : undefined;
    }, 15_000);
  });

  it('with one pod watch per node, as each node\'s own identity would', async () => {
    const perNode = runSimulatedNodes({ ...defaultNodeAgentConfig(), hostnameOverride: 'pn' }, () => client, createLogger(0, true), 3, { podWatch: 'per-node' });
    try {
      await perNode.registered;
      for (let i = 0; i < 3; i++) await fx.request('POST', '/api/v1/namespaces/default/pods', { body: pod(`pn-pod-${i}`, `pn-${i}`) });
      await waitFor('3 Running pods', async () => {
        const items = (await fx.request('GET', '/api/v1/namespaces/default/pods')).json().items.filter((p: any) => p.metadata.name.startsWith('pn-pod-'));
        return items.filter((p: any) => p.status.phase === 'Running').length === 3 ? true : undefined;
      });
    } finally {
      await perNode.stop();
    }
  });
});
