/**
 * Several API servers on one etcd, as kube-apiserver runs them behind a load balancer: a write
 * through one is read through the other at the same resourceVersion, watches on both see the same
 * events, each server keeps its APIServerIdentity Lease, and the kubernetes Service's Endpoints and
 * EndpointSlice list every live server (the lease reconciler), dropping a server that stops at
 * once and one that dies when its TTL lapses. The servers bind 127.0.0.2 and 127.0.0.3 on one port
 * (kube's servers share the port) and advertise documentation addresses: the Endpoints refuse
 * loopback addresses, as kube's do. Timings are shortened through controlPlaneTuning.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { freePort, startLocalEtcd, type LocalEtcd } from '../../hack/local-etcd.js';
import { apiServerID } from '../../internal/controllers/apiserver-identity/identity.js';
import { createLogger } from '../../internal/observability/logging.js';
import type { ControlPlaneTuning, ServerOptions } from '../../internal/server/options/flags.js';
import { startServer, type RunningServer } from '../../internal/server/server.js';
import { groupOptionsFromFlags, testServerOptions } from '../support/server.js';
import { serviceAccountFlags, writeSigningKey } from '../support/service-accounts.js';
import { streamWatch } from '../support/watch.js';

const tuning = (hostname: string): ControlPlaneTuning => ({
  hostname,
  identityLeaseRenewIntervalMs: 200,
  identityLeaseGCPeriodMs: 200,
  endpointReconcileIntervalMs: 200,
  endpointReconcilerTTLSeconds: 2,
});

interface Member {
  readonly host: string;
  readonly server: RunningServer;
  readonly ca: string;
}

interface Reply {
  status: number;
  json: any;
}

function call(m: Member, port: number, method: string, path: string, body?: unknown): Promise<Reply> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: m.host, port, method, path, ca: m.ca, servername: 'localhost', headers: payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** Opens a watch and resolves with its first n events (type, name and resourceVersion). */
function watchEvents(m: Member, port: number, path: string, n: number): { opened: Promise<void>; events: Promise<Array<[string, string, string]>> } {
  let opened!: () => void;
  const openedP = new Promise<void>((r) => (opened = r));
  const events = new Promise<Array<[string, string, string]>>((resolve, reject) => {
    const out: Array<[string, string, string]> = [];
    const w = streamWatch(
      { host: m.host, port, ca: m.ca, path },
      {
        onOpen: () => opened(),
        onEvent: (ev) => {
          out.push([ev.type, ev.object.metadata.name, ev.object.metadata.resourceVersion]);
          if (out.length === n) {
            w.close();
            resolve(out);
          }
        },
        onEnd: (err) => reject(err ?? new Error(`watch ended after ${out.length} of ${n} events`)),
      },
    );
  });
  return { opened: openedP, events };
}

async function until<T>(what: string, fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('several API servers on one etcd', () => {
  let etcd: LocalEtcd;
  let dir: string;
  let port: number;
  let a: Member;
  let b: Member;
  const extraServers: RunningServer[] = [];
  const log = createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1');

  async function start(host: string, advertise: string, hostname: string, flags: readonly string[] = [], more: Partial<ServerOptions> = {}): Promise<Member> {
    const extra: Partial<ServerOptions> = { bindAddress: host, advertiseAddress: advertise, controlPlaneTuning: tuning(hostname), ...groupOptionsFromFlags(flags), ...more };
    const options = testServerOptions(etcd.endpoint, port, join(dir, host), extra);
    const server = await startServer(options, log);
    await server.ready;
    return { host, server, ca: server.certificate.ca ?? '' };
  }

  const endpointIPs = async (m: Member): Promise<string[]> =>
    ((await call(m, port, 'GET', '/api/v1/namespaces/default/endpoints/kubernetes')).json.subsets?.[0]?.addresses ?? []).map((x: { ip: string }) => x.ip);
  const sliceIPs = async (m: Member): Promise<string[]> =>
    ((await call(m, port, 'GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes')).json.endpoints ?? []).flatMap(
      (e: { addresses: string[] }) => e.addresses,
    );

  before(async () => {
    etcd = await startLocalEtcd();
    dir = await mkdtemp(join(tmpdir(), 'capstan-multi-'));
    port = await freePort();
    a = await start('127.0.0.2', '192.0.2.10', 'capstan-a');
    b = await start('127.0.0.3', '192.0.2.11', 'capstan-b');
  });
  after(async () => {
    for (const s of extraServers) await s.stop();
    await a?.server.stop();
    await b?.server.stop();
    await etcd?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a write through one server is read through the other at the same resourceVersion', async () => {
    const created = await call(a, port, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'shared' }, data: { k: 'a' } });
    assert.equal(created.status, 201);
    const read = await call(b, port, 'GET', '/api/v1/namespaces/default/configmaps/shared');
    assert.equal(read.status, 200);
    assert.equal(read.json.metadata.resourceVersion, created.json.metadata.resourceVersion);
    assert.deepEqual(read.json.data, { k: 'a' });
    const updated = await call(b, port, 'PUT', '/api/v1/namespaces/default/configmaps/shared', { ...read.json, data: { k: 'b' } });
    assert.equal(updated.status, 200);
    // A list served from A's watch cache waits until the cache has caught up with the write through B.
    const listed = await until(
      'the update through B in a list through A',
      async () => (await call(a, port, 'GET', '/api/v1/namespaces/default/configmaps?resourceVersion=0')).json.items.find((c: any) => c.metadata.name === 'shared'),
      (c) => c?.metadata.resourceVersion === updated.json.metadata.resourceVersion,
    );
    assert.deepEqual(listed.data, { k: 'b' });
    // A write with B's resourceVersion through A is accepted: both name the same etcd revision.
    const again = await call(a, port, 'PUT', '/api/v1/namespaces/default/configmaps/shared', { ...updated.json, data: { k: 'c' } });
    assert.equal(again.status, 200);
  });

  it('concurrent pod creates through both servers never exceed a ResourceQuota (compare-and-swap on its status)', async () => {
    assert.equal((await call(a, port, 'POST', '/api/v1/namespaces', { metadata: { name: 'quota-multi' } })).status, 201);
    const q = await call(a, port, 'POST', '/api/v1/namespaces/quota-multi/resourcequotas', { metadata: { name: 'q' }, spec: { hard: { pods: '6' } } });
    assert.equal(q.status, 201);
    await until('quota status on both servers', async () => [(await call(a, port, 'GET', '/api/v1/namespaces/quota-multi/resourcequotas/q')).json.status?.used?.pods, (await call(b, port, 'GET', '/api/v1/namespaces/quota-multi/resourcequotas/q')).json.status?.used?.pods], (v) => v[0] === '0' && v[1] === '0');
    const pod = (name: string) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    const replies = await Promise.all(Array.from({ length: 16 }, (_, i) => call(i % 2 ? a : b, port, 'POST', '/api/v1/namespaces/quota-multi/pods', pod(`p${i}`))));
    const created = replies.filter((r) => r.status === 201).length;
    assert.ok(created <= 6, `created ${created}`);
    for (const r of replies) if (r.status !== 201) assert.ok(r.status === 403 || r.status === 409, JSON.stringify(r.json));
    const pods = (await call(a, port, 'GET', '/api/v1/namespaces/quota-multi/pods')).json.items.length;
    assert.equal(pods, created);
    const used = (await call(b, port, 'GET', '/api/v1/namespaces/quota-multi/resourcequotas/q')).json.status.used.pods;
    assert.equal(used, String(created));
  });

  it('watches on both servers see the same events with the same resourceVersions', async () => {
    const list = await call(a, port, 'GET', '/api/v1/namespaces/default/configmaps');
    const from = list.json.metadata.resourceVersion;
    const path = `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${from}`;
    const wa = watchEvents(a, port, path, 6);
    const wb = watchEvents(b, port, path, 6);
    await Promise.all([wa.opened, wb.opened]);
    for (const [i, m] of [a, b, a].entries()) {
      const name = `w${i}`;
      assert.equal((await call(m, port, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name } })).status, 201);
    }
    assert.equal((await call(b, port, 'DELETE', '/api/v1/namespaces/default/configmaps/w0')).status, 200);
    const cur = (await call(a, port, 'GET', '/api/v1/namespaces/default/configmaps/w1')).json;
    assert.equal((await call(b, port, 'PUT', '/api/v1/namespaces/default/configmaps/w1', { ...cur, data: { x: '1' } })).status, 200);
    assert.equal((await call(a, port, 'DELETE', '/api/v1/namespaces/default/configmaps/w2')).status, 200);
    const [ea, eb] = await Promise.all([wa.events, wb.events]);
    assert.deepEqual(ea, eb);
    assert.deepEqual(
      ea.map(([t, n]) => `${t} ${n}`),
      ['ADDED w0', 'ADDED w1', 'ADDED w2', 'DELETED w0', 'MODIFIED w1', 'DELETED w2'],
    );
  });

  it('each server keeps its identity Lease in kube-system and renews it', async () => {
    const selector = encodeURIComponent('apiserver.kubernetes.io/identity=kube-apiserver');
    const leases = async (): Promise<any[]> => (await call(a, port, 'GET', `/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?labelSelector=${selector}`)).json.items;
    const first = await until('both identity leases', leases, (l) => l.length === 2);
    const byHost = new Map(first.map((l) => [l.metadata.labels['kubernetes.io/hostname'], l]));
    for (const host of ['capstan-a', 'capstan-b']) {
      const lease = byHost.get(host);
      assert.ok(lease, `no lease for ${host}`);
      assert.equal(lease.metadata.name, apiServerID(host));
      assert.deepEqual(lease.metadata.labels, { 'apiserver.kubernetes.io/identity': 'kube-apiserver', 'kubernetes.io/hostname': host });
      assert.match(lease.spec.holderIdentity, new RegExp(`^${apiServerID(host)}_[0-9a-f-]{36}$`));
      assert.equal(lease.spec.leaseDurationSeconds, 3600);
      assert.match(lease.spec.renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    }
    await until(
      'both leases renewed',
      leases,
      (l) => l.length === 2 && l.every((x) => Date.parse(x.spec.renewTime) > Date.parse(byHost.get(x.metadata.labels['kubernetes.io/hostname']).spec.renewTime)),
    );
  });

  it('a lapsed identity Lease of another server is garbage-collected; other leases stay', async () => {
    const base = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases';
    const old = new Date(Date.now() - 10_000).toISOString().replace('Z', '000Z');
    const spec = { holderIdentity: 'gone', leaseDurationSeconds: 1, renewTime: old };
    assert.equal((await call(a, port, 'POST', base, { metadata: { name: 'apiserver-gone', labels: { 'apiserver.kubernetes.io/identity': 'kube-apiserver' } }, spec })).status, 201);
    assert.equal((await call(a, port, 'POST', base, { metadata: { name: 'not-an-identity' }, spec })).status, 201);
    await until('the lapsed identity lease deleted', async () => (await call(b, port, 'GET', `${base}/apiserver-gone`)).status, (s) => s === 404);
    assert.equal((await call(b, port, 'GET', `${base}/not-an-identity`)).status, 200);
  });

  it('the kubernetes Endpoints and EndpointSlice list both servers, sorted, on the secure port', async () => {
    await until('both addresses in the Endpoints', () => endpointIPs(a), (ips) => ips.length === 2);
    const ep = (await call(b, port, 'GET', '/api/v1/namespaces/default/endpoints/kubernetes')).json;
    assert.deepEqual(ep.metadata.labels, { 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    assert.deepEqual(ep.subsets, [{ addresses: [{ ip: '192.0.2.10' }, { ip: '192.0.2.11' }], ports: [{ name: 'https', port, protocol: 'TCP' }] }]);
    await until('both addresses in the EndpointSlice', () => sliceIPs(a), (ips) => ips.length === 2);
    const slice = (await call(b, port, 'GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes')).json;
    assert.deepEqual(slice.metadata.labels, { 'kubernetes.io/service-name': 'kubernetes' });
    assert.equal(slice.addressType, 'IPv4');
    assert.deepEqual(slice.endpoints, [
      { addresses: ['192.0.2.10'], conditions: { ready: true } },
      { addresses: ['192.0.2.11'], conditions: { ready: true } },
    ]);
    assert.deepEqual(slice.ports, [{ name: 'https', port, protocol: 'TCP' }]);
  });

  it('each address is an etcd key with a TTL under kube\'s layout', async () => {
    const client = new Etcd3({ hosts: [etcd.endpoint] });
    try {
      for (const ip of ['192.0.2.10', '192.0.2.11']) {
        const kv = (await client.kv.range({ key: Buffer.from(`/registry/masterleases/${ip}`) })).kvs[0];
        assert.ok(kv, `no key for ${ip}`);
        assert.notEqual(kv.lease, '0');
        const ttl = await client.leaseClient.leaseTimeToLive({ ID: kv.lease, keys: false });
        assert.ok(Number(ttl.TTL) > 0 && Number(ttl.TTL) <= 2, `TTL ${ttl.TTL}`);
      }
    } finally {
      client.close();
    }
  });

  it('a server that dies drops out when its TTL lapses', async () => {
    const d = await start('127.0.0.5', '192.0.2.13', 'capstan-d');
    await until('the new server listed', () => endpointIPs(a), (ips) => ips.includes('192.0.2.13'));
    // Killed: no pre-shutdown hook takes its address out; its key is renewed no more.
    await d.server.stop({ skipPreShutdownHooks: true });
    const stoppedAt = Date.now();
    assert.ok((await endpointIPs(a)).includes('192.0.2.13'), 'still listed right after it died');
    await until('the dead server gone', () => endpointIPs(b), (ips) => !ips.includes('192.0.2.13'));
    // Within its TTL (2 s here, kube's 15 s) and a reconcile interval or two.
    assert.ok(Date.now() - stoppedAt < 5000, `${Date.now() - stoppedAt} ms`);
    assert.deepEqual(await endpointIPs(a), ['192.0.2.10', '192.0.2.11']);
    assert.deepEqual(await sliceIPs(a), ['192.0.2.10', '192.0.2.11']);
  });

  it('--endpoint-reconciler-type=none leaves the Endpoints alone; --external-hostname names the generated URLs', async () => {
    const key = await writeSigningKey('rsa');
    const c = await start('127.0.0.4', '192.0.2.12', 'capstan-c', [...serviceAccountFlags(key), '--endpoint-reconciler-type=none'], { externalHostname: 'api.example.test' });
    extraServers.push(c.server);
    await new Promise((r) => setTimeout(r, 800));
    assert.deepEqual(await endpointIPs(c), ['192.0.2.10', '192.0.2.11']);
    assert.deepEqual(await sliceIPs(c), ['192.0.2.10', '192.0.2.11']);
    const discovery = await call(c, port, 'GET', '/.well-known/openid-configuration');
    assert.equal(discovery.status, 200);
    assert.equal(discovery.json.jwks_uri, `https://api.example.test:${port}/openid/v1/jwks`);
  });

  it('a server that stops gracefully takes its address out at once', async () => {
    await b.server.stop();
    assert.deepEqual(await endpointIPs(a), ['192.0.2.10']);
    assert.deepEqual(await sliceIPs(a), ['192.0.2.10']);
    const client = new Etcd3({ hosts: [etcd.endpoint] });
    try {
      assert.equal((await client.kv.range({ key: Buffer.from('/registry/masterleases/192.0.2.11') })).kvs.length, 0);
    } finally {
      client.close();
    }
  });
});
