/**
 * startNodeAgent's composition against a real API server: --runtime=simulated starts the simulated
 * nodes (they register), and a remote runtime whose endpoint does not answer stops the start with
 * kubelet's message naming the endpoint and the gRPC error, leaving nothing running.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { kubeconfig } from '../../hack/run-local.js';
import { startNodeAgent } from '../../internal/nodeagent/agent.js';
import { loadNodeKubeconfig } from '../../internal/nodeagent/certificate/kubeconfig.js';
import { ApiClient } from '../../internal/nodeagent/client/api-client.js';
import { createEventRecorder } from '../../internal/nodeagent/events/recorder.js';
import { defaultNodeAgentConfig } from '../../internal/nodeagent/options/defaults.js';
import { createLogger } from '../../internal/observability/logging.js';
import { clientCert, createCertificateAuthority, type CertificateAuthority } from '../support/client-certs.js';
import { useServer } from '../support/server.js';

const log = createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1');
let ca: CertificateAuthority;
const server = useServer({}, async () => {
  ca = await createCertificateAuthority('node-agent-start-ca');
  await writeFile(join(server.dir, 'ca.crt'), ca.certPem);
  return [`--client-ca-file=${join(server.dir, 'ca.crt')}`, '--authorization-mode=Node,RBAC'];
});

async function adminKubeconfig(): Promise<string> {
  const admin = await clientCert(ca, 'agent-start-admin', ['system:masters']);
  const path = join(server.dir, 'admin.kubeconfig');
  await writeFile(path, kubeconfig(`https://127.0.0.1:${server.port}`, server.ca, 'capstan', { clientCert: admin.cert, clientKey: admin.key }));
  return path;
}

describe('startNodeAgent', () => {
  it('runs simulated nodes with --runtime=simulated', { timeout: 30_000 }, async () => {
    const config = { ...defaultNodeAgentConfig(), kubeconfig: await adminKubeconfig(), runtime: 'simulated' as const, simulatedNodes: 3, hostnameOverride: 'agent-sim' };
    const agent = await startNodeAgent(config, log);
    try {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const list = await agent.client.get<{ items: Array<{ metadata: { name: string } }> }>('/api/v1/nodes');
        const registered = list.items.map((n) => n.metadata.name).filter((n) => n.startsWith('agent-sim-')).sort();
        if (registered.length === 3) {
          assert.deepEqual(registered, ['agent-sim-0', 'agent-sim-1', 'agent-sim-2']);
          break;
        }
        assert.ok(Date.now() < deadline, `simulated nodes registered: ${registered.join(',')}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await agent.stop();
    }
  });

  it('records Events through the API: created once, then count PATCHed', async () => {
    const target = await loadNodeKubeconfig(await adminKubeconfig());
    const client = new ApiClient({ server: target.server, ...(target.ca ? { ca: target.ca } : {}), ...(target.clientCert && target.clientKey ? { clientCert: target.clientCert, clientKey: target.clientKey } : {}) });
    try {
      const rec = createEventRecorder(client, 'ev-node', { qps: 50, burst: 100, log });
      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ev-pod', namespace: 'default', uid: 'ev-uid' } };
      rec.event(pod, 'Warning', 'BackOff', 'Back-off restarting failed container app in pod ev-pod', 'spec.containers{app}');
      await rec.flush();
      rec.event(pod, 'Warning', 'BackOff', 'Back-off restarting failed container app in pod ev-pod', 'spec.containers{app}');
      await rec.flush();
      const list = await client.get<{ items: Array<Record<string, any>> }>('/api/v1/namespaces/default/events', { query: { fieldSelector: 'involvedObject.name=ev-pod' } });
      assert.equal(list.items.length, 1);
      const ev = list.items[0] as Record<string, any>;
      assert.equal(ev.count, 2);
      assert.equal(ev.reason, 'BackOff');
      assert.equal(ev.involvedObject.fieldPath, 'spec.containers{app}');
      assert.deepEqual(ev.source, { component: 'kubelet', host: 'ev-node' });
      assert.equal(ev.reportingComponent, 'kubelet');
      assert.equal(ev.reportingInstance, 'ev-node');
    } finally {
      client.close();
    }
  });

  it('refuses to start when the runtime endpoint does not answer, naming it', async () => {
    const endpoint = `unix://${join(server.dir, 'no-runtime.sock')}`;
    const config = { ...defaultNodeAgentConfig(), kubeconfig: await adminKubeconfig(), containerRuntimeEndpoint: endpoint, hostnameOverride: 'agent-no-runtime' };
    await assert.rejects(startNodeAgent(config, log), (err: Error) => {
      assert.match(err.message, new RegExp(`^failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint "${endpoint.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}": rpc error: code = Unavailable desc = `));
      return true;
    });
  });
});
