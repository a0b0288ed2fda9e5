/**
 * End to end, issue 16's node liveness: the node agent (child process, system:node:<name>, Node,RBAC
 * and NodeRestriction on the API server) registers a Node that shows Ready with kubelet's reason and
 * renews its Lease in kube-node-lease every quarter of nodeLeaseDurationSeconds (4 s here, set in its
 * --config file); stopping the agent lets the Lease expire (renewTime + leaseDurationSeconds passes
 * with no renewal). And without a runtime at --container-runtime-endpoint, the agent exits saying the
 * endpoint is unreachable, naming it.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { freePort } from '../../hack/local-etcd.js';
import { startNodeAgent, writeNodeAgentFiles } from '../../hack/local-node.js';
import { agentTail, eventually, useNodeAgent } from '../support/node-agent.js';

const leaseSeconds = 4;
const fx = useNodeAgent({ tag: 'na-node', config: { nodeLeaseDurationSeconds: leaseSeconds, nodeStatusUpdateFrequency: '2s' } });

interface Lease {
  metadata: { ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string }[] };
  spec: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string };
}

async function lease(): Promise<Lease | undefined> {
  const r = await fx.api('GET', `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${fx.nodeName}`);
  return r.status === 200 ? r.json<Lease>() : undefined;
}

describe('node agent: Node, Lease and runtime', { timeout: 120_000 }, () => {
  it('registers a Node that shows Ready (KubeletReady) with its addresses, labels and endpoint', async () => {
    const node = await eventually(
      async () => {
        const r = await fx.api('GET', `/api/v1/nodes/${fx.nodeName}`);
        const n = r.json<any>();
        return n.status?.conditions?.find((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True') ? n : undefined;
      },
      30_000,
      () => `Node ${fx.nodeName} to be Ready; agent:\n${agentTail(fx.agent)}`,
    );
    const conditions = Object.fromEntries((node.status.conditions as { type: string; status: string; reason: string }[]).map((c) => [c.type, c]));
    assert.equal(conditions.Ready.reason, 'KubeletReady');
    for (const pressure of ['MemoryPressure', 'DiskPressure', 'PIDPressure']) assert.equal(conditions[pressure]?.status, 'False', `${pressure} False`);
    assert.deepEqual(
      (node.status.addresses as { type: string; address: string }[]).filter((a) => a.type === 'InternalIP').map((a) => a.address),
      ['127.0.0.1'],
    );
    assert.equal(node.metadata.labels['kubernetes.io/hostname'], fx.nodeName);
    assert.equal(node.metadata.labels['kubernetes.io/os'], 'linux');
    assert.ok(Number(node.status.capacity.pods) > 0 && node.status.allocatable.memory, `capacity and allocatable: ${JSON.stringify(node.status.capacity)}`);
    assert.match(node.status.nodeInfo.containerRuntimeVersion, /^containerd:\/\//);
    assert.equal(node.status.daemonEndpoints.kubeletEndpoint.Port, fx.files.port);

    const table = await fx.kubectl(['get', 'nodes']);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, new RegExp(`^${fx.nodeName}\\s+Ready\\s`, 'm'));
  });

  it('renews its Lease in kube-node-lease, owned by its Node', async () => {
    // kubelet sets the owner reference on a renewal once its Node exists (the first Lease may lack it).
    let seenLease: Lease | undefined;
    const first = await eventually(
      async () => {
        seenLease = await lease();
        return seenLease?.metadata.ownerReferences?.length ? seenLease : undefined;
      },
      20_000,
      () => `Lease kube-node-lease/${fx.nodeName} owned by its Node; last seen ${JSON.stringify(seenLease)}`,
    );
    assert.equal(first.spec.holderIdentity, fx.nodeName);
    assert.equal(first.spec.leaseDurationSeconds, leaseSeconds);
    const node = (await fx.api('GET', `/api/v1/nodes/${fx.nodeName}`)).json<{ metadata: { uid: string } }>();
    assert.deepEqual(
      first.metadata.ownerReferences?.map((o) => ({ apiVersion: o.apiVersion, kind: o.kind, name: o.name, uid: o.uid })),
      [{ apiVersion: 'v1', kind: 'Node', name: fx.nodeName, uid: node.metadata.uid }],
    );
    // Renewed every leaseDurationSeconds / 4 (1 s): twice within a lease duration.
    const seen = new Set([first.spec.renewTime]);
    await eventually(
      async () => {
        seen.add((await lease())?.spec.renewTime);
        return seen.size >= 3 ? true : undefined;
      },
      leaseSeconds * 1000,
      () => `two renewals within ${leaseSeconds} s; renewTimes seen: ${[...seen].join(', ')}`,
      200,
    );
  });

  it('stopping the node agent lets its Lease expire', async () => {
    await fx.stopAgent();
    assert.equal(await fx.agent.exited, 0, `a graceful stop exits 0; agent:\n${agentTail(fx.agent)}`);
    const last = (await lease())!;
    const renewed = Date.parse(last.spec.renewTime!);
    const expires = renewed + last.spec.leaseDurationSeconds! * 1000;
    await sleep(Math.max(0, expires - Date.now()) + 1000);
    const after = (await lease())!;
    assert.equal(after.spec.renewTime, last.spec.renewTime, 'no renewal after the agent stopped');
    assert.ok(Date.now() > Date.parse(after.spec.renewTime!) + after.spec.leaseDurationSeconds! * 1000, 'renewTime + leaseDurationSeconds has passed: the Lease expired');
  });

  it('without containerd it exits saying the runtime endpoint is unreachable (Unavailable), naming it', async () => {
    const endpoint = `unix:///tmp/capstan-no-runtime-${process.pid}/containerd.sock`;
    const files = await writeNodeAgentFiles({
      dir: join(fx.server.dir, 'no-runtime'),
      nodeName: `${fx.nodeName}-no-runtime`,
      server: `https://127.0.0.1:${fx.server.port}`,
      serverCA: fx.server.ca,
      clientCA: fx.clientCA,
      pki: fx.pki,
      runtimeEndpoint: endpoint,
      port: await freePort(),
      healthzPort: await freePort(),
      config: { runtimeRequestTimeout: '5s' },
    });
    const agent = startNodeAgent(files.args);
    const code = await Promise.race([agent.exited, sleep(60_000, undefined, { ref: false }).then(() => 'still running after 60 s')]);
    await agent.stop();
    assert.notEqual(code, 0, `exits non-zero without a runtime (got ${code}):\n${agent.output()}`);
    assert.equal(typeof code, 'number', `exits by itself (got ${code}):\n${agent.output()}`);
    const said = agent.output();
    assert.ok(said.includes(endpoint), `names the endpoint ${endpoint}:\n${said}`);
    // kubelet's words: "validate service connection: validate CRI v1 runtime API for endpoint
    // "unix:///...": rpc error: code = Unavailable desc = ...", the gRPC code saying it is unreachable.
    assert.match(said, /validate service connection: validate CRI v1 runtime API for endpoint \\?"unix:\/\/\/[^"\\]+\\?": rpc error: code = Unavailable desc = /, 'says the runtime endpoint is unreachable (Unavailable)');
  });
});
