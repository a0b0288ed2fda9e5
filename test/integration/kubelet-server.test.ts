/**
 * The node agent's kubelet server against a real API server: authentication (client certificates
 * from the kubelet's client CA, bearer tokens through TokenReview, anonymous off), authorization
 * through SubjectAccessReview (RBAC denials with kubelet's message), the read-only and healthz
 * ports, /containerLogs from CRI log files, and the API server's pods/log and nodes/proxy reaching
 * the kubelet with --kubelet-* flags and the Node's address and kubelet port, driven by kubectl.
 */
import assert from 'node:assert/strict';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../../hack/local-etcd.js';
import { kubeconfig } from '../../hack/run-local.js';
import { defaultNodeAgentConfig } from '../../internal/nodeagent/options/defaults.js';
import { startKubeletServers, type KubeletServers } from '../../internal/nodeagent/server/build.js';
import { clientCert, createCertificateAuthority, issueCertificate, tempDir, tlsCall, writeTemp, type CertificateAuthority, type IssuedCertificate } from '../support/client-certs.js';
import { agentContext, echoStreaming, fakeCri, fakePods, fakeSummary, type FakeContainer } from '../support/kubelet-fakes.js';
import { kubectl, kubectlStream, waitFor } from '../support/kubectl.js';
import { useServer } from '../support/server.js';
import * as x509 from '@peculiar/x509';

const dir = await tempDir('capstan-kubelet-server-');
const tokens = { root: 'root-token-0123456789', alice: 'alice-token-0123456789', bob: 'bob-token-0123456789' };
const tokenFile = await writeTemp(dir, 'tokens.csv', `${tokens.root},root,uid-root,"system:masters"\n${tokens.alice},alice,uid-alice,devs\n${tokens.bob},bob,uid-bob\n`);
const kubeletClientCA = await createCertificateAuthority('kubelet-client-ca');
const servingCA = await createCertificateAuthority('kubelet-serving-ca');
const hostIP = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
const serving = await issueCertificate(servingCA, { commonName: 'kl-node', usage: 'server', dns: ['kl-node', 'localhost'], ips: ['127.0.0.1', ...(hostIP ? [hostIP] : [])] });
const apiserverKubeletCert = await clientCert(kubeletClientCA, 'kube-apiserver-kubelet-client', ['system:masters']);
const files = {
  clientCA: await writeTemp(dir, 'kubelet-client-ca.crt', kubeletClientCA.certPem),
  servingCA: await writeTemp(dir, 'serving-ca.crt', servingCA.certPem),
  servingCert: await writeTemp(dir, 'serving.crt', serving.cert),
  servingKey: await writeTemp(dir, 'serving.key', serving.key),
  apiCert: await writeTemp(dir, 'apiserver-kubelet.crt', apiserverKubeletCert.cert),
  apiKey: await writeTemp(dir, 'apiserver-kubelet.key', apiserverKubeletCert.key),
};

const fx = useServer({}, [
  `--token-auth-file=${tokenFile}`,
  '--authorization-mode=RBAC',
  `--kubelet-client-certificate=${files.apiCert}`,
  `--kubelet-client-key=${files.apiKey}`,
  `--kubelet-certificate-authority=${files.servingCA}`,
  '--kubelet-preferred-address-types=InternalIP,Hostname',
]);

const nodeName = 'kl-node';
const logDir = join(dir, 'pods');
const containers: Record<string, FakeContainer> = {
  app1: { logPath: join(logDir, 'app-0.log'), running: false },
  app2: { logPath: join(logDir, 'app-1.log'), running: true },
};
const podSpec = { nodeName, containers: [{ name: 'app', image: 'busybox' }, { name: 'side', image: 'busybox' }] };
const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default', uid: 'uid-web' },
  spec: podSpec,
  status: {
    phase: 'Running',
    containerStatuses: [
      { name: 'app', containerID: 'containerd://app2', state: { running: { startedAt: '2024-05-01T10:00:00Z' } }, lastState: { terminated: { exitCode: 1, containerID: 'containerd://app1' } }, restartCount: 1 },
      { name: 'side', state: { waiting: { reason: 'ContainerCreating' } }, lastState: {}, restartCount: 0 },
    ],
  },
};
let servers: KubeletServers;
let anonymousServers: KubeletServers;
const contexts: Array<{ abort(): void }> = [];
let adminKubeconfig: string;

describe('the kubelet server', () => {
before(async () => {
  await mkdir(logDir, { recursive: true });
  await writeFile(containers.app1!.logPath, '2024-05-01T09:00:00.000000001Z stdout F previous run\n');
  await writeFile(containers.app2!.logPath, '2024-05-01T10:00:00.5Z stdout F line one\n2024-05-01T10:00:01Z stderr P line \n2024-05-01T10:00:01.1Z stderr F two\n2024-05-01T10:00:02Z stdout F line three\n');
  await mkdir(join(dir, 'varlog', 'sub'), { recursive: true });
  await writeFile(join(dir, 'varlog', 'syslog'), 'node log\n');
  const server = `https://127.0.0.1:${fx.port}`;
  const config = {
    ...defaultNodeAgentConfig(),
    address: hostIP ? '0.0.0.0' : '127.0.0.1',
    port: await freePort(),
    readOnlyPort: await freePort(),
    healthzPort: await freePort(),
    tlsCertFile: files.servingCert,
    tlsPrivateKeyFile: files.servingKey,
    certDir: join(dir, 'pki'),
    authentication: { x509: { clientCAFile: files.clientCA }, webhook: { enabled: true, cacheTTLMs: 120_000 }, anonymous: { enabled: false } },
  };
  const ctx = agentContext(config, nodeName, server, fx.ca, tokens.root, fakeCri(containers));
  contexts.push(ctx);
  servers = await startKubeletServers(ctx, { pods: fakePods([pod]), summary: fakeSummary, streaming: echoStreaming, logDir: join(dir, 'varlog') });
  // Another kubelet: anonymous allowed, AlwaysAllow, self-signed serving certificate in its cert dir.
  const anonConfig = { ...config, address: '127.0.0.1', port: await freePort(), readOnlyPort: 0, healthzPort: 0, tlsCertFile: undefined, tlsPrivateKeyFile: undefined, certDir: join(dir, 'pki-anon'), authentication: { x509: {}, webhook: { enabled: false, cacheTTLMs: 0 }, anonymous: { enabled: true } }, authorization: { mode: 'AlwaysAllow' as const, webhook: { cacheAuthorizedTTLMs: 0, cacheUnauthorizedTTLMs: 0 } } };
  const anonCtx = agentContext(anonConfig, 'anon-node', server, fx.ca, tokens.root);
  contexts.push(anonCtx);
  anonymousServers = await startKubeletServers(anonCtx, { pods: fakePods([]), summary: fakeSummary, streaming: echoStreaming, logDir: join(dir, 'varlog') });

  const root = { authorization: `Bearer ${tokens.root}` };
  const must = async (method: string, path: string, body: unknown): Promise<void> => {
    const r = await fx.request(method, path, { body, headers: root });
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  };
  await must('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'kubelet-reader' }, rules: [{ apiGroups: [''], resources: ['nodes/proxy', 'nodes/pods', 'nodes/log'], verbs: ['get'] }] });
  await must('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { metadata: { name: 'alice-kubelet-reader' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'kubelet-reader' }, subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }] });
  await must('POST', '/api/v1/nodes', { metadata: { name: nodeName } });
  const node = await fx.request('GET', `/api/v1/nodes/${nodeName}`, { headers: root });
  await must('PUT', `/api/v1/nodes/${nodeName}/status`, { ...node.json<Record<string, unknown>>(), status: { addresses: [{ type: 'Hostname', address: nodeName }, { type: 'InternalIP', address: hostIP ?? '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: servers.port } } } });
  await must('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'web' }, spec: podSpec });
  await must('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'pending' }, spec: { containers: [{ name: 'only', image: 'busybox' }] } });
  adminKubeconfig = await writeTemp(dir, 'admin.kubeconfig', kubeconfig(server, fx.ca, 'capstan', { token: tokens.root }));
});

after(async () => {
  await servers?.stop();
  await anonymousServers?.stop();
  for (const c of contexts) c.abort();
});

const call = (path: string, opts: { token?: string; cert?: IssuedCertificate; method?: string } = {}) =>
  tlsCall(servers.port, servingCA.certPem, opts.method ?? 'GET', path, { ...(opts.token ? { headers: { authorization: `Bearer ${opts.token}` } } : {}), ...(opts.cert ? { cert: opts.cert } : {}) });

function plainGet(port: number, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('kubelet server authentication and authorization', () => {
  it('refuses a request without credentials when anonymous is off', async () => {
    const r = await call('/pods');
    assert.equal(r.status, 401);
    assert.equal(r.text, 'Unauthorized');
  });
  it('refuses a token the API server does not know', async () => {
    const r = await call('/pods', { token: 'no-such-token' });
    assert.equal(r.status, 401);
  });
  it('admits a token reviewed by the API server and allowed by its SubjectAccessReview', async () => {
    const r = await call('/pods', { token: tokens.alice });
    assert.equal(r.status, 200, r.text);
    const list = r.json();
    assert.equal(list.kind, 'PodList');
    assert.equal(list.items[0].metadata.name, 'web');
  });
  it('answers a denied SubjectAccessReview with kubelet 403 text', async () => {
    const pods = await call('/pods', { token: tokens.bob });
    assert.equal(pods.status, 403);
    assert.equal(pods.text, 'Forbidden (user=bob, verb=get, resource=nodes, subresource=proxy)');
    const metrics = await call('/metrics', { token: tokens.alice });
    assert.equal(metrics.text, 'Forbidden (user=alice, verb=get, resource=nodes, subresource=metrics)');
    const stats = await call('/stats/summary', { token: tokens.alice });
    assert.equal(stats.status, 403);
    assert.equal(stats.text, 'Forbidden (user=alice, verb=get, resource=nodes, subresource=stats)');
    const post = await call('/exec/default/web/app?command=ls', { token: tokens.alice, method: 'POST' });
    assert.equal(post.status, 403);
    assert.equal(post.text, 'Forbidden (user=alice, verb=create, resource=nodes, subresource=proxy)');
  });
  it('admits a client certificate from the client CA and refuses one from another CA', async () => {
    const admin = await clientCert(kubeletClientCA, 'kubelet-admin', ['system:masters']);
    const ok = await call('/stats/summary', { cert: admin });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json().node.nodeName, 'fake');
    const stranger: CertificateAuthority = await createCertificateAuthority('stranger');
    const bad = await call('/pods', { cert: await clientCert(stranger, 'kubelet-admin', ['system:masters']) });
    assert.equal(bad.status, 401);
  });
  it('routes exec, attach and portForward (with and without the pod uid) to the streaming handlers', async () => {
    const admin = await clientCert(kubeletClientCA, 'kubelet-admin', ['system:masters']);
    assert.deepEqual((await call('/exec/default/web/app?command=ls', { cert: admin, method: 'POST' })).json(), { kind: 'exec', namespace: 'default', pod: 'web', container: 'app' });
    assert.deepEqual((await call('/attach/default/web/uid-web/app', { cert: admin, method: 'POST' })).json(), { kind: 'attach', namespace: 'default', pod: 'web', uid: 'uid-web', container: 'app' });
    assert.deepEqual((await call('/portForward/default/web', { cert: admin })).json(), { kind: 'portForward', namespace: 'default', pod: 'web', container: '' });
    assert.equal((await call('/exec/default/web', { cert: admin, method: 'POST' })).status, 404);
  });
  it('lets anyone in as system:anonymous when anonymous is on, on a self-signed certificate of its own', async () => {
    const r = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port: anonymousServers.port, path: '/healthz', rejectUnauthorized: false }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end();
    });
    assert.deepEqual(r, { status: 200, text: 'ok' });
    const { readFile } = await import('node:fs/promises');
    const { X509Certificate } = await import('node:crypto');
    const pem = await readFile(join(dir, 'pki-anon', 'kubelet.crt'), 'utf8');
    const leaf = new X509Certificate(pem);
    assert.match(leaf.subject, /^CN=anon-node@\d+$/);
    assert.match(leaf.issuer, /^CN=anon-node-ca@\d+$/);
    assert.match(leaf.subjectAltName ?? '', /DNS:anon-node/);
  });
});


describe('kubelet server endpoints', () => {
  it('serves /containerLogs from the CRI log file, with kubelet options and errors', async () => {
    const admin = await clientCert(kubeletClientCA, 'kubelet-admin', ['system:masters']);
    const logs = (q: string) => call(`/containerLogs/default/web/app${q}`, { cert: admin });
    assert.equal((await logs('')).text, 'line one\nline two\nline three\n');
    assert.equal((await logs('?tailLines=1')).text, 'line three\n');
    assert.equal((await logs('?tail=all')).text, 'line one\nline two\nline three\n');
    assert.equal((await logs('?limitBytes=6')).text, 'line o');
    assert.equal((await logs('?timestamps=true&tailLines=1')).text, '2024-05-01T10:00:02.000000000Z line three\n');
    assert.equal((await logs('?sinceTime=2024-05-01T10:00:01Z')).text, 'line two\nline three\n');
    assert.equal((await logs('?previous=true')).text, 'previous run\n');
    const invalid = await logs('?tailLines=-1');
    assert.deepEqual([invalid.status, invalid.text], [422, '{"message": "Invalid request."}']);
    const side = await call('/containerLogs/default/web/side', { cert: admin });
    assert.deepEqual([side.status, side.text], [400, 'container "side" in pod "web" is waiting to start: ContainerCreating']);
    const prevSide = await call('/containerLogs/default/web/side?previous=true', { cert: admin });
    assert.deepEqual([prevSide.status, prevSide.text], [400, 'previous terminated container "side" in pod "web" not found']);
    const nope = await call('/containerLogs/default/web/nope', { cert: admin });
    assert.deepEqual([nope.status, nope.text], [404, 'container "nope" not found in pod "web"']);
    const noPod = await call('/containerLogs/default/ghost/app', { cert: admin });
    assert.deepEqual([noPod.status, noPod.text], [404, 'pod "ghost" does not exist']);
  });
  it('serves /logs/ as a directory listing and files', async () => {
    const admin = await clientCert(kubeletClientCA, 'kubelet-admin', ['system:masters']);
    const listing = await call('/logs/', { cert: admin });
    assert.equal(listing.status, 200);
    assert.match(listing.text, /<pre>\n<a href="sub\/">sub\/<\/a>\n<a href="syslog">syslog<\/a>\n<\/pre>/);
    assert.equal((await call('/logs/syslog', { cert: admin })).text, 'node log\n');
    assert.equal((await call('/logs/../../etc/passwd', { cert: admin })).status, 404);
    // nodes/log is its own subresource: alice may read it, bob may not.
    assert.equal((await call('/logs/syslog', { token: tokens.alice })).status, 200);
    assert.equal((await call('/logs/syslog', { token: tokens.bob })).text, 'Forbidden (user=bob, verb=get, resource=nodes, subresource=log)');
  });
  it('serves /pods, /healthz and /stats on the read-only port without authentication, and nothing else', async () => {
    assert.equal((await plainGet(servers.readOnlyPort, '/pods')).status, 200);
    assert.equal(JSON.parse((await plainGet(servers.readOnlyPort, '/pods')).text).items.length, 1);
    assert.deepEqual(await plainGet(servers.readOnlyPort, '/healthz'), { status: 200, text: 'ok' });
    assert.equal((await plainGet(servers.readOnlyPort, '/stats/summary')).status, 200);
    const metrics = await plainGet(servers.readOnlyPort, '/metrics');
    assert.match(metrics.text, /kubelet_http_requests_total\{method="GET",path="pods",server_type="readonly",long_running="false"\} 2/);
    assert.match(metrics.text, /kubelet_http_requests_total\{method="GET",path="containerLogs",server_type="readwrite",long_running="false"\} \d+/);
    assert.equal((await plainGet(servers.readOnlyPort, '/containerLogs/default/web/app')).status, 404);
    assert.equal((await plainGet(servers.readOnlyPort, '/logs/')).status, 404);
  });
  it('answers /healthz on the healthz port', async () => {
    assert.deepEqual(await plainGet(servers.healthzPort, '/healthz'), { status: 200, text: 'ok' });
    assert.equal((await plainGet(servers.healthzPort, '/pods')).status, 404);
  });
});

describe('pods/log and nodes/proxy through the API server', () => {
  const root = { authorization: `Bearer ${tokens.root}` };
  it('kubectl logs reads the container through the kubelet', async () => {
    const r = await kubectl(adminKubeconfig, ['logs', 'web', '-c', 'app']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'line one\nline two\nline three\n');
    const tail = await kubectl(adminKubeconfig, ['logs', 'web', '-c', 'app', '--tail=2', '--timestamps']);
    assert.equal(tail.stdout, '2024-05-01T10:00:01.000000000Z line two\n2024-05-01T10:00:02.000000000Z line three\n');
    const prev = await kubectl(adminKubeconfig, ['logs', 'web', '-c', 'app', '--previous']);
    assert.equal(prev.stdout, 'previous run\n');
    const side = await kubectl(adminKubeconfig, ['logs', 'web', '-c', 'side']);
    assert.equal(side.code, 1);
    assert.match(side.stderr, /Error from server \(BadRequest\): container "side" in pod "web" is waiting to start: ContainerCreating/);
  });
  it('kubectl logs -f shows lines as they are written', async () => {
    const follow = kubectlStream(adminKubeconfig, ['logs', '-f', 'web', '-c', 'app', '--tail=1']);
    try {
      assert.ok(await waitFor(() => follow.output().includes('line three\n'), 15_000), follow.output());
      await appendFile(containers.app2!.logPath, '2024-05-01T10:00:03Z stdout F line four\n');
      assert.ok(await waitFor(() => follow.output().includes('line four\n'), 15_000), follow.output());
      assert.equal(follow.output(), 'line three\nline four\n');
    } finally {
      await follow.stop();
    }
  });
  it('answers kube errors for the options, the container and an unbound pod', async () => {
    const many = await fx.request('GET', '/api/v1/namespaces/default/pods/web/log', { headers: root });
    assert.equal(many.status, 400);
    assert.equal(many.json().message, 'a container name must be specified for pod web, choose one of: [app side]');
    const bad = await fx.request('GET', '/api/v1/namespaces/default/pods/web/log?container=nope', { headers: root });
    assert.deepEqual([bad.status, bad.json().message], [400, 'container nope is not valid for pod web']);
    const invalid = await fx.request('GET', '/api/v1/namespaces/default/pods/web/log?container=app&tailLines=-1&limitBytes=0', { headers: root });
    assert.equal(invalid.status, 422);
    assert.equal(invalid.json().message, 'PodLogOptions "web" is invalid: [tailLines: Invalid value: -1: must be greater than or equal to 0, limitBytes: Invalid value: 0: must be greater than 0]');
    const both = await fx.request('GET', '/api/v1/namespaces/default/pods/web/log?container=app&sinceSeconds=5&sinceTime=2024-05-01T10:00:00Z', { headers: root });
    assert.equal(both.json().message, 'PodLogOptions "web" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
    const undecodable = await fx.request('GET', '/api/v1/namespaces/default/pods/web/log?container=app&tailLines=x', { headers: root });
    assert.equal(undecodable.status, 400);
    const pending = await fx.request('GET', '/api/v1/namespaces/default/pods/pending/log', { headers: root });
    assert.deepEqual([pending.status, pending.text], [200, '']);
    const missing = await fx.request('GET', '/api/v1/namespaces/default/pods/ghost/log', { headers: root });
    assert.equal(missing.status, 404);
    const forbidden = await fx.request('GET', '/api/v1/namespaces/default/pods/web/log?container=app', { headers: { authorization: `Bearer ${tokens.bob}` } });
    assert.equal(forbidden.status, 403);
  });
  it('nodes/proxy reaches the kubelet with the kubelet client identity', async () => {
    assert.ok(hostIP, 'nodes/proxy refuses loopback kubelets: the test needs a non-loopback IPv4 address');
    const r = await fx.request('GET', `/api/v1/nodes/${nodeName}/proxy/pods`, { headers: root });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().items[0].metadata.name, 'web');
    const healthz = await fx.request('GET', `/api/v1/nodes/${nodeName}:${servers.port}/proxy/healthz`, { headers: root });
    assert.deepEqual([healthz.status, healthz.text], [200, 'ok']);
    const denied = await fx.request('GET', `/api/v1/nodes/${nodeName}/proxy/pods`, { headers: { authorization: `Bearer ${tokens.bob}` } });
    assert.equal(denied.status, 403);
  });
  it('refuses a node without a preferred address, and loopback kubelets for nodes/proxy', async () => {
    await fx.request('POST', '/api/v1/nodes', { body: { metadata: { name: 'bare' } }, headers: root });
    const bare = await fx.request('GET', '/api/v1/nodes/bare/proxy/pods', { headers: root });
    assert.equal(bare.status, 500);
    assert.equal(bare.json().message, 'no preferred addresses found; known addresses: []');
    await fx.request('POST', '/api/v1/nodes', { body: { metadata: { name: 'loop' } }, headers: root });
    const loop = await fx.request('GET', '/api/v1/nodes/loop', { headers: root });
    await fx.request('PUT', '/api/v1/nodes/loop/status', { body: { ...loop.json<Record<string, unknown>>(), status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }] } }, headers: root });
    const refused = await fx.request('GET', '/api/v1/nodes/loop/proxy/pods', { headers: root });
    assert.deepEqual([refused.status, refused.json().message], [400, 'address not allowed']);
  });
});

describe('serverTLSBootstrap', () => {
  it('serves with the certificate a kubernetes.io/kubelet-serving CSR was issued', async () => {
    const root = { authorization: `Bearer ${tokens.root}` };
    const config = {
      ...defaultNodeAgentConfig(),
      address: '127.0.0.1',
      port: await freePort(),
      readOnlyPort: 0,
      healthzPort: 0,
      serverTLSBootstrap: true,
      certDir: join(dir, 'pki-boot'),
      authentication: { x509: {}, webhook: { enabled: false, cacheTTLMs: 0 }, anonymous: { enabled: true } },
      authorization: { mode: 'AlwaysAllow' as const, webhook: { cacheAuthorizedTTLMs: 0, cacheUnauthorizedTTLMs: 0 } },
    };
    const ctx = agentContext(config, nodeName, `https://127.0.0.1:${fx.port}`, fx.ca, tokens.root);
    contexts.push(ctx);
    const boot = await startKubeletServers(ctx, { pods: fakePods([]), summary: fakeSummary, streaming: echoStreaming, logDir: dir });
    try {
      let csr: Record<string, any> | undefined;
      for (let i = 0; i < 100 && !csr; i++) {
        const list = await fx.request('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests', { headers: root });
        csr = list.json().items.find((c: Record<string, any>) => c.spec.signerName === 'kubernetes.io/kubelet-serving');
        if (!csr) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(csr, 'no kubelet-serving CSR was created');
      assert.deepEqual(csr!.spec.usages, ['digital signature', 'server auth']);
      const request = new x509.Pkcs10CertificateRequest(Buffer.from(csr!.spec.request, 'base64').toString());
      assert.equal(request.subjectName.getField('CN')[0], `system:node:${nodeName}`);
      assert.deepEqual(request.subjectName.getField('O'), ['system:nodes']);
      const san = request.extensions.find((e): e is x509.SubjectAlternativeNameExtension => e instanceof x509.SubjectAlternativeNameExtension);
      assert.deepEqual(san?.names.items.map((n) => `${n.type}:${n.value}`).sort(), [`dns:${nodeName}`, `ip:${hostIP ?? '127.0.0.1'}`].sort());
      const name = csr!.metadata.name as string;
      const approved = await fx.request('PUT', `/apis/certificates.k8s.io/v1/certificatesigningrequests/${name}/approval`, {
        body: { ...csr, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'TestApproved', message: 'approved by the test' }] } },
        headers: root,
      });
      assert.equal(approved.status, 200, approved.text);
      const cert = await x509.X509CertificateGenerator.create({
        serialNumber: '01ab',
        subject: request.subject,
        issuer: servingCA.cert.subject,
        notBefore: new Date(Date.now() - 60_000),
        notAfter: new Date(Date.now() + 3600_000),
        signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
        publicKey: await request.publicKey.export(),
        signingKey: servingCA.key,
        extensions: [new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]), new x509.SubjectAlternativeNameExtension(san!.names.items.map((n) => ({ type: n.type, value: n.value })))],
      });
      const issued = await fx.request('PUT', `/apis/certificates.k8s.io/v1/certificatesigningrequests/${name}/status`, {
        body: { ...approved.json<Record<string, any>>(), status: { ...approved.json<Record<string, any>>().status, certificate: Buffer.from(cert.toString('pem')).toString('base64') } },
        headers: root,
      });
      assert.equal(issued.status, 200, issued.text);
      await boot.servingCertificateReady;
      const r = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpsRequest({ host: '127.0.0.1', port: boot.port, path: '/healthz', ca: servingCA.certPem, servername: nodeName }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        req.end();
      });
      assert.deepEqual([r.status, r.text], [200, 'ok']);
      const { readFile } = await import('node:fs/promises');
      assert.match(await readFile(join(dir, 'pki-boot', 'kubelet-server-current.pem'), 'utf8'), /BEGIN CERTIFICATE[\s\S]*BEGIN PRIVATE KEY/);
    } finally {
      await boot.stop();
    }
  });
});
});
