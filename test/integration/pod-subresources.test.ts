/**
 * Pod subresources and proxies against a real etcd: pods/binding (and bindings), pods/eviction with
 * a PodDisruptionBudget, pods/ephemeralcontainers, pods/resize, pods/proxy and services/proxy to an
 * HTTP server on this host (real kubectl too), CONNECT admission with AlwaysDeny, the certificate
 * admission plugins for a user without approve/sign, NamespaceAutoProvision and NamespaceExists.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { Pkcs10CertificateRequestGenerator } from '@peculiar/x509';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { kubeconfig } from '../../hack/run-local.js';
import { kubectl } from '../support/kubectl.js';
import { useServer } from '../support/server.js';
import { bearer, tokenAuthFileFlag } from '../support/static-tokens.js';

const users = [
  { token: 'admin-token', name: 'admin', uid: 'u-admin', groups: ['system:masters'] },
  { token: 'alice-token', name: 'alice', uid: 'u-alice', groups: ['system:authenticated'] },
];

const fx = useServer({}, async () => [
  '--authorization-mode=RBAC',
  await tokenAuthFileFlag(users),
  '--enable-admission-plugins=NamespaceAutoProvision,NamespaceExists',
  '--disable-admission-plugins=NamespaceLifecycle',
]);

type Opts = { body?: unknown; headers?: Record<string, string>; rawBody?: string | Buffer };
const as = (token: string) => (method: string, path: string, opts: Opts = {}) => fx.request(method, path, { ...opts, headers: { ...bearer(token), ...opts.headers } });
const admin = as('admin-token');
const alice = as('alice-token');
const merge = { 'content-type': 'application/merge-patch+json' };
const strategic = { 'content-type': 'application/strategic-merge-patch+json' };
const pods = '/api/v1/namespaces/default/pods';

/** This host's first non-loopback IPv4 address: kube proxies only to global unicast addresses. */
function hostIP(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  throw new Error('this host has no non-loopback IPv4 address to proxy to');
}

async function createPod(name: string, spec: Record<string, unknown> = {}, labels: Record<string, string> = {}): Promise<any> {
  const res = await admin('POST', pods, { body: { metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } } });
  assert.equal(res.status, 201, res.text);
  return res.json();
}

async function setPodStatus(name: string, status: Record<string, unknown>): Promise<void> {
  const res = await admin('PATCH', `${pods}/${name}/status`, { rawBody: JSON.stringify({ status }), headers: merge });
  assert.equal(res.status, 200, res.text);
}

describe('pods/binding and bindings', () => {
  it('sets nodeName, annotations and PodScheduled once; a second binding conflicts', async () => {
    await createPod('bound');
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bound', annotations: { 'example.com/by': 'test' } }, target: { kind: 'Node', name: 'n1' } };
    const first = await admin('POST', `${pods}/bound/binding`, { body: binding });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.json().status, 'Success');
    const pod = (await admin('GET', `${pods}/bound`)).json();
    assert.equal(pod.spec.nodeName, 'n1');
    assert.equal(pod.metadata.annotations['example.com/by'], 'test');
    const scheduled = pod.status.conditions.find((c: any) => c.type === 'PodScheduled');
    assert.equal(scheduled.status, 'True');
    const second = await admin('POST', `${pods}/bound/binding`, { body: { ...binding, target: { name: 'n2' } } });
    assert.equal(second.status, 409);
    assert.equal(second.json().message, 'Operation cannot be fulfilled on pods/binding "bound": pod bound is already assigned to node "n1"');
    const mismatch = await admin('POST', `${pods}/bound/binding`, { body: { ...binding, metadata: { name: 'other' } } });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.json().message, 'name in URL does not match name in Binding object');

    await createPod('legacy');
    const legacy = await admin('POST', '/api/v1/namespaces/default/bindings', { body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'legacy' }, target: { name: 'n3' } } });
    assert.equal(legacy.status, 201, legacy.text);
    assert.equal((await admin('GET', `${pods}/legacy`)).json().spec.nodeName, 'n3');
    const missing = await admin('POST', '/api/v1/namespaces/default/bindings', { body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'ghost' }, target: { name: 'n3' } } });
    assert.equal(missing.status, 404);
  });
});

describe('pods/eviction', () => {
  const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

  async function setBudget(name: string, allowed: number): Promise<void> {
    const pdb = (await admin('GET', `${pdbs}/${name}`)).json();
    const status = { observedGeneration: pdb.metadata.generation, disruptionsAllowed: allowed, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 };
    const res = await admin('PUT', `${pdbs}/${name}/status`, { body: { ...pdb, status } });
    assert.equal(res.status, 200, res.text);
  }

  it('blocks with 429 while the budget allows nothing, evicts and takes a disruption when it allows', async () => {
    await createPod('web-1', {}, { app: 'web' });
    await setPodStatus('web-1', { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] });
    assert.equal((await admin('POST', pdbs, { body: { metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } } })).status, 201);
    const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web-1' } };

    const fresh = await admin('POST', `${pods}/web-1/eviction`, { body: eviction });
    assert.equal(fresh.status, 429, 'a budget its controller has not observed yet');
    assert.equal(fresh.json().details.causes[0].message, 'The disruption budget web is still being processed by the server.');

    await setBudget('web', 0);
    const blocked = await admin('POST', `${pods}/web-1/eviction`, { body: eviction });
    assert.equal(blocked.status, 429);
    assert.equal(blocked.json().reason, 'TooManyRequests');
    assert.equal(blocked.json().message, "Cannot evict pod as it would violate the pod's disruption budget.");
    assert.deepEqual(blocked.json().details.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 1 healthy pods and has 1 currently' }]);

    await setBudget('web', 1);
    const dry = await admin('POST', `${pods}/web-1/eviction?dryRun=All`, { body: eviction });
    assert.equal(dry.status, 201, dry.text);
    assert.equal((await admin('GET', `${pdbs}/web`)).json().status.disruptionsAllowed, 1, 'a dry run takes nothing');
    const evicted = await admin('POST', `${pods}/web-1/eviction`, { body: eviction });
    assert.equal(evicted.status, 201, evicted.text);
    assert.equal(evicted.json().status, 'Success');
    const pdb = (await admin('GET', `${pdbs}/web`)).json();
    assert.equal(pdb.status.disruptionsAllowed, 0);
    assert.ok(pdb.status.disruptedPods['web-1']);
    assert.equal(pdb.status.conditions.find((c: any) => c.type === 'DisruptionAllowed').reason, 'InsufficientPods');
    assert.equal((await admin('GET', `${pods}/web-1`)).status, 404, 'an unscheduled pod goes at once');
  });

  it('evicts pending pods without a budget check (v1beta1 body too); two budgets are a 500', async () => {
    await createPod('pend', {}, { app: 'two' });
    const beta = await admin('POST', `${pods}/pend/eviction`, { body: { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: 'pend' } } });
    assert.equal(beta.status, 201, beta.text);

    await createPod('two-1', {}, { app: 'two' });
    await setPodStatus('two-1', { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] });
    for (const name of ['two-a', 'two-b']) {
      assert.equal((await admin('POST', pdbs, { body: { metadata: { name }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'two' } } } } })).status, 201);
    }
    await createPod('sick', { nodeName: 'n1' }, { app: 'sick' });
    await setPodStatus('sick', { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] });
    assert.equal((await admin('POST', pdbs, { body: { metadata: { name: 'sick' }, spec: { minAvailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow', selector: { matchLabels: { app: 'sick' } } } } })).status, 201);
    await setBudget('sick', 0);
    const graceful = await admin('POST', `${pods}/sick/eviction`, { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'sick' }, deleteOptions: { gracePeriodSeconds: 7 } } });
    assert.equal(graceful.status, 201, graceful.text);
    const sick = (await admin('GET', `${pods}/sick`)).json();
    assert.equal(sick.metadata.deletionGracePeriodSeconds, 7, 'deleteOptions are honoured');
    assert.equal(sick.status.conditions.find((c: any) => c.type === 'DisruptionTarget').reason, 'EvictionByEvictionAPI');
    assert.equal((await admin('GET', `${pdbs}/sick`)).json().status.disruptionsAllowed, 0, 'an unhealthy pod takes no disruption');

    const both = await admin('POST', `${pods}/two-1/eviction`, { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'two-1' } } });
    assert.equal(both.status, 500);
    assert.equal(both.json().message, 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
  });
});

describe('pods/ephemeralcontainers and pods/resize', () => {
  it('adds ephemeral containers and refuses changing one', async () => {
    await createPod('debug');
    const add = await admin('PATCH', `${pods}/debug/ephemeralcontainers`, { rawBody: JSON.stringify({ spec: { ephemeralContainers: [{ name: 'dbg', image: 'busybox' }] } }), headers: strategic });
    assert.equal(add.status, 200, add.text);
    assert.equal(add.json().spec.ephemeralContainers[0].name, 'dbg');
    const change = await admin('PATCH', `${pods}/debug/ephemeralcontainers`, { rawBody: JSON.stringify({ spec: { ephemeralContainers: [{ name: 'dbg', image: 'alpine' }] } }), headers: strategic });
    assert.equal(change.status, 422);
    assert.match(change.json().message, /existing ephemeral containers "dbg" may not be changed/);
  });

  it('changes cpu and memory only', async () => {
    await createPod('rz', { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '64Mi' } } }] });
    const ok = await admin('PATCH', `${pods}/rz/resize`, { rawBody: JSON.stringify({ spec: { containers: [{ name: 'c', image: 'other', resources: { requests: { cpu: '150m' } } }] } }), headers: strategic });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json().spec.containers[0].resources.requests.cpu, '150m');
    assert.equal(ok.json().spec.containers[0].image, 'i', 'only resources get through');
    const storage = await admin('PATCH', `${pods}/rz/resize`, { rawBody: JSON.stringify({ spec: { containers: [{ name: 'c', resources: { limits: { 'ephemeral-storage': '1Gi' } } }] } }), headers: strategic });
    assert.equal(storage.status, 422);
    assert.match(storage.json().message, /spec: Forbidden: only cpu and memory resources are mutable/);
    const qos = await admin('PATCH', `${pods}/rz/resize`, { rawBody: JSON.stringify({ spec: { containers: [{ name: 'c', resources: { requests: { cpu: '200m' } } }] } }), headers: strategic });
    assert.equal(qos.status, 422);
    assert.match(qos.json().message, /Pod QOS Class may not change as a result of resizing/);
    const viaUpdate = await admin('PATCH', `${pods}/rz`, { rawBody: JSON.stringify({ spec: { containers: [{ name: 'c', resources: { requests: { cpu: '120m' } } }] } }), headers: strategic });
    assert.equal(viaUpdate.status, 422, 'the pod itself keeps resources immutable');
  });
});

describe('pods/proxy and services/proxy', () => {
  let backend: Server;
  let port = 0;
  const ip = hostIP();
  before(async () => {
    backend = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/moved') {
          res.writeHead(302, { location: '/login/' });
          res.end();
          return;
        }
        res.writeHead(req.url === '/teapot' ? 418 : 200, { 'content-type': 'application/json', 'x-backend': 'yes' });
        res.end(JSON.stringify({ method: req.method, url: req.url, body: Buffer.concat(chunks).toString(), authorization: req.headers.authorization ?? null, forwardedUri: req.headers['x-forwarded-uri'] }));
      });
    });
    await new Promise<void>((resolve) => backend.listen(0, '0.0.0.0', resolve));
    port = (backend.address() as AddressInfo).port;
    await createPod('px', { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: port }] }] });
    await setPodStatus('px', { phase: 'Running', podIP: ip, podIPs: [{ ip }] });
    await createPod('lo');
    await setPodStatus('lo', { phase: 'Running', podIP: '127.0.0.1', podIPs: [{ ip: '127.0.0.1' }] });
    assert.equal((await admin('POST', '/api/v1/namespaces/default/services', { body: { metadata: { name: 'echo' }, spec: { ports: [{ name: 'http', port: 80, targetPort: port }] } } })).status, 201);
    const endpoints = { metadata: { name: 'echo' }, subsets: [{ addresses: [{ ip, targetRef: { kind: 'Pod', namespace: 'default', name: 'px' } }], ports: [{ name: 'http', port }] }] };
    assert.equal((await admin('POST', '/api/v1/namespaces/default/endpoints', { body: endpoints })).status, 201);
    assert.equal((await admin('POST', '/api/v1/namespaces/default/services', { body: { metadata: { name: 'empty' }, spec: { ports: [{ port: 80 }] } } })).status, 201);
    assert.equal((await admin('POST', '/api/v1/namespaces/default/endpoints', { body: { metadata: { name: 'empty' } } })).status, 201);
  });
  after(() => backend?.close());

  it('proxies every verb to the pod, streaming bodies, without the caller credentials', async () => {
    const get = await admin('GET', `${pods}/px/proxy/hello/world?x=1`);
    assert.equal(get.status, 200, get.text);
    assert.equal(get.headers['x-backend'], 'yes');
    assert.deepEqual(get.json(), { method: 'GET', url: '/hello/world?x=1', body: '', authorization: null, forwardedUri: `${pods}/px/proxy/hello/world` });
    const post = await admin('POST', `${pods}/px:${port}/proxy/submit/`, { rawBody: 'payload', headers: { 'content-type': 'text/plain' } });
    assert.deepEqual([post.json().method, post.json().url, post.json().body], ['POST', '/submit/', 'payload']);
    for (const method of ['PUT', 'PATCH', 'DELETE']) assert.equal((await admin(method, `${pods}/http:px:${port}/proxy/x`, { rawBody: 'b' })).json().method, method);
    assert.equal((await admin('GET', `${pods}/px/proxy/teapot`)).status, 418);
    const moved = await admin('GET', `${pods}/px/proxy/moved`);
    assert.equal(moved.status, 302);
    assert.equal(moved.headers.location, `https://127.0.0.1:${fx.port}${pods}/px/proxy/login/`);
    const redirect = await admin('GET', `${pods}/px/proxy`);
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.location, `${pods}/px/proxy/`);
    const loopback = await admin('GET', `${pods}/lo:${port}/proxy/`);
    assert.equal(loopback.status, 400);
    assert.equal(loopback.json().message, 'address not allowed');
    const refused = await admin('GET', `${pods}/px:1/proxy/`);
    assert.equal(refused.status, 503);
    assert.equal(refused.json().message, `error trying to reach service: dial tcp ${ip}:1: connect: connection refused`);
    assert.equal((await admin('GET', `${pods}/nope/proxy/`)).status, 404);
  });

  it('authorizes pods/proxy by the request verb', async () => {
    const denied = await alice('GET', `${pods}/px/proxy/`);
    assert.equal(denied.status, 403);
    assert.match(denied.json().message, /cannot get resource "pods\/proxy" in API group "" in the namespace "default"/);
    const deleted = await alice('DELETE', `${pods}/px/proxy/`);
    assert.match(deleted.json().message, /cannot delete resource "pods\/proxy"/);
  });

  it('proxies to a service endpoint by port number or name; none is 503', async () => {
    const byNumber = await admin('GET', '/api/v1/namespaces/default/services/echo:80/proxy/a?b=c');
    assert.equal(byNumber.status, 200, byNumber.text);
    assert.equal(byNumber.json().url, '/a?b=c');
    assert.equal((await admin('POST', '/api/v1/namespaces/default/services/http:echo:http/proxy/', { rawBody: 'x' })).json().body, 'x');
    const empty = await admin('GET', '/api/v1/namespaces/default/services/empty/proxy/');
    assert.equal(empty.status, 503);
    assert.equal(empty.json().message, 'no endpoints available for service "empty"');
    const noPort = await admin('GET', '/api/v1/namespaces/default/services/echo:81/proxy/');
    assert.equal(noPort.status, 503);
    assert.equal(noPort.json().message, 'no service port 81 found for service "echo"');
  });

  it('works for kubectl get --raw', async () => {
    const path = join(fx.dir, 'admin.kubeconfig');
    await writeFile(path, kubeconfig(`https://127.0.0.1:${fx.port}`, fx.ca, 'capstan', { token: 'admin-token' }));
    const out = await kubectl(path, ['get', '--raw', '/api/v1/namespaces/default/services/echo:80/proxy/']);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout).url, '/');
  });
});

describe('certificate admission plugins', () => {
  const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

  async function csrRequest(subject: string): Promise<string> {
    const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const req = await Pkcs10CertificateRequestGenerator.create({ name: subject, keys, signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' } });
    return Buffer.from(req.toString('pem')).toString('base64');
  }

  it('needs approve and sign on the signer; refuses system:masters client certificates', async () => {
    const role = { metadata: { name: 'csr-editor' }, rules: [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests', 'certificatesigningrequests/approval', 'certificatesigningrequests/status'], verbs: ['get', 'update', 'patch'] }] };
    assert.equal((await admin('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { body: role })).status, 201);
    const bind = (name: string, roleName: string) => ({ metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName }, subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }] });
    assert.equal((await admin('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { body: bind('alice-csr', 'csr-editor') })).status, 201);
    const created = await admin('POST', csrs, { body: { metadata: { name: 'c1' }, spec: { signerName: 'example.com/foo', request: await csrRequest('CN=alice'), usages: ['client auth'] } } });
    assert.equal(created.status, 201, created.text);
    const csr = created.json();
    const approved = { ...csr, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] } };
    const refused = await alice('PUT', `${csrs}/c1/approval`, { body: approved });
    assert.equal(refused.status, 403);
    assert.equal(refused.json().message, 'certificatesigningrequests.certificates.k8s.io "c1" is forbidden: user not permitted to approve requests with signerName "example.com/foo"');

    const signerRole = { metadata: { name: 'signer' }, rules: [{ apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['example.com/*'], verbs: ['approve'] }] };
    assert.equal((await admin('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { body: signerRole })).status, 201);
    assert.equal((await admin('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { body: bind('alice-signer', 'signer') })).status, 201);
    let ok = await alice('PUT', `${csrs}/c1/approval`, { body: approved });
    for (let i = 0; i < 50 && ok.status === 403; i++) {
      await new Promise((r) => setTimeout(r, 100));
      ok = await alice('PUT', `${csrs}/c1/approval`, { body: approved });
    }
    assert.equal(ok.status, 200, ok.text);

    const signed = { ...ok.json(), status: { ...ok.json().status, certificate: Buffer.from('not really').toString('base64') } };
    const noSign = await alice('PUT', `${csrs}/c1/status`, { body: signed });
    assert.equal(noSign.status, 403);
    assert.equal(noSign.json().message, 'certificatesigningrequests.certificates.k8s.io "c1" is forbidden: user not permitted to sign requests with signerName "example.com/foo"');

    const masters = await admin('POST', csrs, {
      body: { metadata: { name: 'm1' }, spec: { signerName: 'kubernetes.io/kube-apiserver-client', request: await csrRequest('CN=root, O=system:masters'), usages: ['client auth'] } },
    });
    assert.equal(masters.status, 403);
    assert.equal(masters.json().message, 'certificatesigningrequests.certificates.k8s.io "m1" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed');
  });
});

describe('NamespaceAutoProvision and NamespaceExists', () => {
  it('creates the namespace of a create; a dry run into a missing namespace is 404', async () => {
    const created = await admin('POST', '/api/v1/namespaces/auto-made/configmaps', { body: { metadata: { name: 'c' } } });
    assert.equal(created.status, 201, created.text);
    assert.equal((await admin('GET', '/api/v1/namespaces/auto-made')).status, 200);
    const dry = await admin('POST', '/api/v1/namespaces/nowhere/configmaps?dryRun=All', { body: { metadata: { name: 'c' } } });
    assert.equal(dry.status, 404);
    assert.equal(dry.json().message, 'namespaces "nowhere" not found');
  });
});

describe('CONNECT admission', () => {
  const deny = useServer({}, ['--enable-admission-plugins=AlwaysDeny']);

  it('AlwaysDeny refuses a proxy before it connects', async () => {
    const res = await deny.request('GET', `${pods}/px:80/proxy/`);
    assert.equal(res.status, 403);
    assert.equal(res.json().message, 'pods "px:80" is forbidden: admission control is denying all modifications');
  });
});
