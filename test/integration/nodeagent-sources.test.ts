/**
 * The node agent's pod sources against a real API server, as the node's own identity
 * (system:node:node-1 in system:nodes, --authorization-mode=Node,RBAC, NodeRestriction): pods bound
 * to the node become syncPod/removePod calls; a manifest in --pod-manifest-path and pods from
 * --manifest-url (with its header) run as static pods with mirror pods in the API server, which
 * are recreated when deleted and deleted when the static pod goes; a pod that does not fit is
 * rejected with status Failed; the watch recovers from an API server restart.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta/types.js';
import { ApiClient, ApiError } from '../../internal/nodeagent/client/api-client.js';
import type { PodManager } from '../../internal/nodeagent/interface.js';
import { startPodManager } from '../../internal/nodeagent/sources/build.js';
import { recordingHandler, testAgentContext } from '../support/agent-context.js';
import { clientCert, createCertificateAuthority, tempDir, writeTemp, type CertificateAuthority } from '../support/client-certs.js';
import { useServer } from '../support/server.js';

let clientCA: CertificateAuthority;
const fx = useServer({}, async () => {
  clientCA = await createCertificateAuthority('client-ca');
  const dir = await tempDir();
  return [`--client-ca-file=${await writeTemp(dir, 'ca.crt', clientCA.certPem)}`, '--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction'];
});

const nodeName = 'node-1';
let admin: ApiClient;
let manager: PodManager;
let manifestDir: string;
let httpServer: http.Server;
let httpPods: unknown = '';
let httpHeaders: http.IncomingHttpHeaders = {};
const handler = recordingHandler();
const ctx = { abort: new AbortController() };

async function clientFor(cn: string, groups: string[]): Promise<ApiClient> {
  const cert = await clientCert(clientCA, cn, groups);
  return new ApiClient({ server: `https://127.0.0.1:${fx.port}`, ca: Buffer.from(fx.ca), clientCert: Buffer.from(cert.cert), clientKey: Buffer.from(cert.key) });
}

async function eventually<T>(fn: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function pod(name: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }], ...spec } };
}

const syncsOf = (name: string) => handler.calls.filter((c) => c.op === 'sync' && c.desired.pod.metadata.name === name).map((c) => (c.op === 'sync' ? c.desired : undefined)!);
const removed = (uid: string) => handler.calls.some((c) => c.op === 'remove' && c.uid === uid);

describe('node agent pod sources against the API server', () => {
  before(async () => {
    admin = await clientFor('admin', ['system:masters']);
    const node = await clientFor(`system:node:${nodeName}`, ['system:nodes']);
    await node.create('/api/v1/nodes', { metadata: { name: nodeName, labels: { 'kubernetes.io/os': 'linux' } }, status: { capacity: { cpu: '4', memory: '8Gi', pods: '20' }, allocatable: { cpu: '4', memory: '8Gi', pods: '20' } } });
    await admin.create('/api/v1/namespaces', { metadata: { name: 'apps' } });
    manifestDir = await mkdtemp(join(tmpdir(), 'capstan-sources-'));
    httpServer = http.createServer((req, res) => {
      httpHeaders = req.headers;
      res.end(typeof httpPods === 'string' ? httpPods : JSON.stringify(httpPods));
    });
    await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/pods`;
    const agent = testAgentContext({
      nodeName,
      client: node,
      signal: ctx.abort.signal,
      config: { staticPodPath: manifestDir, fileCheckFrequencyMs: 1000, staticPodURL: url, staticPodURLHeader: { 'X-Token': ['secret'] }, httpCheckFrequencyMs: 300 },
    });
    manager = await startPodManager(agent, handler);
    Object.assign(ctx, { agent });
  });

  after(async () => {
    await manager?.stop();
    ctx.abort.abort();
    httpServer?.close();
    if (manifestDir) await rm(manifestDir, { recursive: true, force: true });
  });

  it('API pods bound to the node appear as syncPod and go as removePod; others are not seen', async () => {
    const created = await admin.create('/api/v1/namespaces/apps/pods', pod('web'));
    await admin.create('/api/v1/namespaces/apps/pods', pod('elsewhere', { nodeName: 'node-2' }));
    await handler.waitFor(() => syncsOf('web').length === 1);
    assert.equal(syncsOf('web')[0]!.source, 'api');
    assert.equal(syncsOf('web')[0]!.pod.metadata.uid, created.metadata.uid);
    // A graceful delete is a change (deletionTimestamp set), then the pod goes.
    await admin.delete('/api/v1/namespaces/apps/pods/web', { gracePeriodSeconds: 30 });
    await handler.waitFor(() => syncsOf('web').some((d) => d.pod.metadata.deletionTimestamp));
    await admin.delete('/api/v1/namespaces/apps/pods/web', { gracePeriodSeconds: 0 });
    await handler.waitFor(() => removed(created.metadata.uid!));
    assert.equal(syncsOf('elsewhere').length, 0);
  });

  it('a manifest file becomes a static pod with a mirror pod, recreated when deleted, gone with the file', async () => {
    await writeFile(join(manifestDir, '.hidden.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: {name: hidden}\nspec: {containers: [{name: c, image: busybox}]}\n');
    await writeFile(join(manifestDir, 'broken.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: {name: broken}\nspec: {containers: [{name: c}]}\n');
    await writeFile(join(manifestDir, 'static.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: {name: static, labels: {tier: node}}\nspec: {containers: [{name: c, image: busybox}]}\n');
    await handler.waitFor(() => syncsOf('static-node-1').length > 0);
    const staticPod = syncsOf('static-node-1')[0]!.pod;
    assert.equal(syncsOf('static-node-1')[0]!.source, 'file');
    assert.match(staticPod.metadata.uid ?? '', /^[0-9a-f]{32}$/);
    const mirror: KubeObject = await eventually(() => admin.get('/api/v1/namespaces/default/pods/static-node-1'), 'the mirror pod');
    const ann = mirror.metadata.annotations ?? {};
    assert.equal(ann['kubernetes.io/config.mirror'], staticPod.metadata.uid);
    assert.equal(ann['kubernetes.io/config.hash'], staticPod.metadata.uid);
    assert.equal(ann['kubernetes.io/config.source'], 'file');
    assert.ok(ann['kubernetes.io/config.seen']);
    assert.equal(mirror.metadata.labels?.tier, 'node');
    const nodeObj = await admin.get(`/api/v1/nodes/${nodeName}`);
    assert.deepEqual(mirror.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: nodeObj.metadata.uid, controller: true }]);
    assert.equal((mirror.spec as { nodeName?: string }).nodeName, nodeName);
    await handler.waitFor(() => syncsOf('static-node-1').some((d) => d.mirror?.metadata.uid === mirror.metadata.uid));
    assert.equal(syncsOf('hidden-node-1').length + syncsOf('broken-node-1').length, 0, 'dot files and invalid manifests are skipped');

    // Deleted by someone: the node recreates it.
    await admin.delete('/api/v1/namespaces/default/pods/static-node-1', { gracePeriodSeconds: 0 });
    const again = await eventually(async () => {
      const m = await admin.get('/api/v1/namespaces/default/pods/static-node-1');
      return m.metadata.uid !== mirror.metadata.uid ? m : undefined;
    }, 'the recreated mirror pod');
    assert.equal(again.metadata.annotations?.['kubernetes.io/config.mirror'], staticPod.metadata.uid);

    await rm(join(manifestDir, 'static.yaml'));
    await handler.waitFor(() => removed(staticPod.metadata.uid!));
    await eventually(async () => {
      try {
        await admin.get('/api/v1/namespaces/default/pods/static-node-1');
        return undefined;
      } catch (err) {
        return err instanceof ApiError && err.code === 404 ? true : undefined;
      }
    }, 'the mirror pod to go');
  });

  it('the HTTP source: a PodList with the configured header, mirrored; a changed manifest is a new pod', async () => {
    const list = (image: string) => ({ apiVersion: 'v1', kind: 'PodList', items: [{ metadata: { name: 'from-url', namespace: 'apps' }, spec: { containers: [{ name: 'c', image }] } }] });
    httpPods = list('busybox');
    await handler.waitFor(() => syncsOf('from-url-node-1').length > 0);
    assert.equal(httpHeaders['x-token'], 'secret');
    const first = syncsOf('from-url-node-1')[0]!;
    assert.equal(first.source, 'http');
    const mirror: KubeObject = await eventually(() => admin.get('/api/v1/namespaces/apps/pods/from-url-node-1'), 'the mirror of the http pod');
    assert.equal(mirror.metadata.annotations?.['kubernetes.io/config.source'], 'http');
    httpPods = list('busybox:2');
    await handler.waitFor(() => removed(first.pod.metadata.uid!) && syncsOf('from-url-node-1').some((d) => d.pod.metadata.uid !== first.pod.metadata.uid));
    const newUid = syncsOf('from-url-node-1').at(-1)!.pod.metadata.uid;
    await eventually(async () => {
      const m = await admin.get('/api/v1/namespaces/apps/pods/from-url-node-1');
      return m.metadata.annotations?.['kubernetes.io/config.mirror'] === newUid ? m : undefined;
    }, 'the mirror of the new hash');
    httpPods = '';
    await handler.waitFor(() => removed(newUid!));
  });

  it('a pod that does not fit is rejected: status Failed with reason and message, never synced', async () => {
    await admin.create('/api/v1/namespaces/apps/pods', pod('picky', { nodeSelector: { disk: 'ssd' } }));
    const failed = await eventually(async () => {
      const p = await admin.get<KubeObject & { status: Record<string, string> }>('/api/v1/namespaces/apps/pods/picky');
      return p.status.phase === 'Failed' ? p : undefined;
    }, 'the rejection status');
    assert.equal(failed.status.reason, 'NodeAffinity');
    assert.equal(failed.status.message, "Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector");
    await admin.create('/api/v1/namespaces/apps/pods', pod('greedy', { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '5' } } }] }));
    const greedy = await eventually(async () => {
      const p = await admin.get<KubeObject & { status: Record<string, string> }>('/api/v1/namespaces/apps/pods/greedy');
      return p.status.phase === 'Failed' ? p : undefined;
    }, 'the OutOfcpu status');
    assert.equal(greedy.status.reason, 'OutOfcpu');
    assert.equal(greedy.status.message, "Pod was rejected: Node didn't have enough resource: cpu, requested: 5000, used: 0, capacity: 4000");
    assert.equal(syncsOf('picky').length + syncsOf('greedy').length, 0);
  });

  it('the watch recovers after the API server restarts', async () => {
    await fx.restart();
    await admin.create('/api/v1/namespaces/apps/pods', pod('after-restart'));
    await handler.waitFor(() => syncsOf('after-restart').length === 1, 20_000);
  });
});
