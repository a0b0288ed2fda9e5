/**
 * The node agent's registration, status and Lease against a real API server with client
 * certificates, Node,RBAC and NodeRestriction, and a containerd of its own for CRI Version, Status
 * and the image list.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { busyboxImage, startContainerd, type LocalContainerd } from '../../hack/local-containerd.js';
import { startNodeStatus } from '../../internal/nodeagent/node/build.js';
import { cpuCores } from '../../internal/nodeagent/node/machine-info.js';
import { defaultNodeAgentConfig } from '../../internal/nodeagent/options/defaults.js';
import type { NodeAgentConfig, SummaryProvider } from '../../internal/nodeagent/interface.js';
import { connectCri, type CriClient } from '../../internal/nodeagent/runtime/cri-client.js';
import { defaultGitVersion } from '../../internal/version/info.js';
import { clientCert, createCertificateAuthority, tempDir, tlsCall, writeTemp, type CertificateAuthority, type IssuedCertificate } from '../support/client-certs.js';
import { fixedPods, nodeContext, recordingEvents } from '../support/node-status-context.js';
import { useServer } from '../support/server.js';

let ca: CertificateAuthority;
const fx = useServer({}, async () => {
  ca = await createCertificateAuthority('client-ca');
  const dir = await tempDir();
  return [`--client-ca-file=${await writeTemp(dir, 'ca.crt', ca.certPem)}`, '--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction'];
});

const emptySummary: SummaryProvider = { summary: async () => ({ node: {}, pods: [] }) };
let containerd: LocalContainerd;
let cri: CriClient;
let rootDir: string;

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function config(extra: Partial<NodeAgentConfig> = {}): NodeAgentConfig {
  return {
    ...defaultNodeAgentConfig(),
    rootDir,
    nodeIPs: ['192.0.2.20'],
    nodeStatusUpdateFrequencyMs: 300,
    nodeStatusReportFrequencyMs: 2_500,
    nodeLeaseDurationSeconds: 2,
    nodeLabels: { 'example.com/tier': 'fast' },
    registerWithTaints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }],
    ...extra,
  };
}

async function start(nodeName: string, extra: Partial<NodeAgentConfig> = {}) {
  const cert = await clientCert(ca, `system:node:${nodeName}`, ['system:nodes']);
  const events = recordingEvents();
  const ctx = nodeContext({ port: fx.port, ca: fx.ca, cert, nodeName, config: config(extra), cri, events });
  const agent = await startNodeStatus(ctx, { summary: emptySummary, pods: fixedPods() });
  return { agent, events, ctx };
}

let adminCert: IssuedCertificate;
const admin = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  tlsCall(fx.port, fx.ca, method, path, { cert: adminCert, ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) });

describe('node status', () => {
  before(async () => {
    containerd = await startContainerd(`/tmp/capstan-node-status-${process.pid}`);
    cri = connectCri(containerd.endpoint, 10_000);
    rootDir = await mkdtemp(join(tmpdir(), 'capstan-node-root-'));
    adminCert = await clientCert(ca, 'admin', ['system:masters']);
  });
  after(async () => {
    cri?.close();
    await containerd?.stop();
    if (rootDir) await rm(rootDir, { recursive: true, force: true });
  });

  it('registers its Node as kubelet does and reports Ready', async () => {
    const { agent, events, ctx } = await start('n1');
    try {
      const node = await waitFor('node n1', async () => {
        const res = await admin('GET', '/api/v1/nodes/n1');
        const n = res.status === 200 ? res.json() : undefined;
        return n?.status?.conditions?.length ? n : undefined;
      });
      assert.equal(node.metadata.labels['kubernetes.io/hostname'], ctx.config.hostnameOverride ?? (await import('node:os')).hostname().toLowerCase());
      assert.equal(node.metadata.labels['kubernetes.io/os'], 'linux');
      assert.equal(node.metadata.labels['beta.kubernetes.io/arch'], node.metadata.labels['kubernetes.io/arch']);
      assert.equal(node.metadata.labels['example.com/tier'], 'fast');
      assert.equal(node.metadata.annotations['volumes.kubernetes.io/controller-managed-attach-detach'], 'true');
      // --register-with-taints, and the not-ready taint the TaintNodesByCondition admission plugin adds.
      assert.deepEqual(node.spec.taints[0], { key: 'dedicated', value: 'infra', effect: 'NoSchedule' });
      assert.deepEqual(node.status.addresses[0], { type: 'InternalIP', address: '192.0.2.20' });
      assert.equal(node.status.addresses[1].type, 'Hostname');
      assert.equal(node.status.capacity.cpu, String(await cpuCores()));
      assert.equal(node.status.capacity.pods, '110');
      assert.equal(node.status.capacity['hugepages-2Mi'], '0');
      assert.match(node.status.capacity.memory, /^\d+Ki$/);
      const ki = (q: string) => Number(q.replace(/Ki$/, '')) * 1024;
      assert.equal(ki(node.status.capacity.memory) - ki(node.status.allocatable.memory), 100 * 1024 * 1024);
      assert.equal(node.status.daemonEndpoints.kubeletEndpoint.Port, 10250);
      assert.match(node.status.nodeInfo.containerRuntimeVersion, /^containerd:\/\/\d/);
      assert.equal(node.status.nodeInfo.kubeletVersion, defaultGitVersion);
      assert.equal(node.status.nodeInfo.kubeProxyVersion, defaultGitVersion);
      assert.equal(node.status.nodeInfo.operatingSystem, 'linux');
      assert.ok(node.status.nodeInfo.bootID.length > 0);
      assert.ok(node.status.images.some((i: { names: string[] }) => i.names.includes(busyboxImage)), JSON.stringify(node.status.images));
      const byType = Object.fromEntries(node.status.conditions.map((c: { type: string }) => [c.type, c]));
      assert.deepEqual(node.status.conditions.map((c: { type: string }) => c.type), ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready']);
      assert.equal(byType.Ready.status, 'True', JSON.stringify(byType.Ready));
      assert.equal(byType.Ready.reason, 'KubeletReady');
      assert.equal(byType.Ready.message, 'kubelet is posting ready status');
      assert.equal(byType.MemoryPressure.reason, 'KubeletHasSufficientMemory');
      assert.equal(byType.DiskPressure.message, 'kubelet has no disk pressure');
      assert.equal(byType.PIDPressure.reason, 'KubeletHasSufficientPID');
      assert.deepEqual(
        events.recorded.map((e) => e.reason),
        ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID', 'NodeReady'],
      );
      assert.equal(events.recorded[3]?.message, 'Node n1 status is now: NodeReady');

      // The Lease: held by the node, owned by the Node, renewed every leaseDuration/4.
      const lease = await waitFor('lease', async () => {
        const res = await admin('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1');
        const l = res.status === 200 ? res.json() : undefined;
        return l?.metadata?.ownerReferences ? l : undefined;
      });
      assert.equal(lease.spec.holderIdentity, 'n1');
      assert.equal(lease.spec.leaseDurationSeconds, 2);
      assert.deepEqual(lease.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: node.metadata.uid }]);
      await waitFor('lease renewal', async () => {
        const l = (await admin('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1')).json();
        return l.spec.renewTime > lease.spec.renewTime ? true : undefined;
      });

      // Unchanged status is not written at every update, but once the report frequency passed.
      const rv = (await admin('GET', '/api/v1/nodes/n1')).json().metadata.resourceVersion;
      const beat = byType.Ready.lastHeartbeatTime;
      await new Promise((r) => setTimeout(r, 1_000));
      const still = (await admin('GET', '/api/v1/nodes/n1')).json();
      assert.equal(still.metadata.resourceVersion, rv, 'a status without changes was written before the report frequency');
      const later = await waitFor('a heartbeat', async () => {
        const n = (await admin('GET', '/api/v1/nodes/n1')).json();
        const ready = n.status.conditions.find((c: { type: string }) => c.type === 'Ready');
        return ready.lastHeartbeatTime !== beat ? ready : undefined;
      }, 5_000);
      assert.equal(later.lastTransitionTime, byType.Ready.lastTransitionTime);
    } finally {
      await agent.stop();
    }

    // Registering again reconciles the default labels and the attach/detach annotation.
    const res = await admin('PATCH', '/api/v1/nodes/n1', { metadata: { labels: { 'kubernetes.io/os': 'plan9' }, annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': null } } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(res.status, 200, res.text);
    const again = await start('n1');
    try {
      await waitFor('reconciled labels', async () => {
        const n = (await admin('GET', '/api/v1/nodes/n1')).json();
        return n.metadata.labels['kubernetes.io/os'] === 'linux' && n.metadata.annotations?.['volumes.kubernetes.io/controller-managed-attach-detach'] === 'true' ? true : undefined;
      });
    } finally {
      await again.agent.stop();
    }
  });

  it('with --register-node=false keeps the status of a Node created by someone else', async () => {
    const { agent } = await start('n2', { registerNode: false });
    try {
      await new Promise((r) => setTimeout(r, 800));
      assert.equal((await admin('GET', '/api/v1/nodes/n2')).status, 404);
      assert.equal((await admin('POST', '/api/v1/nodes', { metadata: { name: 'n2' } })).status, 201);
      const ready = await waitFor('n2 Ready', async () => {
        const n = (await admin('GET', '/api/v1/nodes/n2')).json();
        return n.status?.conditions?.find((c: { type: string }) => c.type === 'Ready');
      });
      assert.equal(ready.reason, 'KubeletReady');
    } finally {
      await agent.stop();
    }
  });

  it('refuses --node-labels kubelet may not set', async () => {
    const cert = await clientCert(ca, 'system:node:n3', ['system:nodes']);
    const ctx = nodeContext({ port: fx.port, ca: fx.ca, cert, nodeName: 'n3', config: config({ nodeLabels: { 'node-role.kubernetes.io/master': '' } }), cri });
    await assert.rejects(startNodeStatus(ctx, { summary: emptySummary, pods: fixedPods() }), /unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: \[node-role.kubernetes.io\/master\]/);
  });
});
