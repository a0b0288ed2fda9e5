/**
 * The server on a 3-member etcd cluster speaking TLS with client certificates required
 * (--etcd-cafile, --etcd-certfile, --etcd-keyfile): CRUD and watches work; each member can be
 * stopped without requests failing (the client fails over) and a member that comes back is used
 * again; a wrong CA or a missing client certificate makes the etcd checks fail with the TLS
 * reason within their timeout instead of hanging.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startLocalEtcdCluster, type EtcdMember, type LocalEtcdCluster } from '../../hack/local-etcd-cluster.js';
import { createCertificateAuthority } from '../../internal/server/pki.js';
import { etcdMetric } from '../support/etcd-metrics.js';
import { startServerOn, type ServerOn } from '../support/server-on.js';
import { streamWatch } from '../support/watch.js';

const cms = '/api/v1/namespaces/default/configmaps';
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: name } });

/** Reads lines of a watch stream as they come. */
function openWatch(port: number, ca: string, path: string): { events: Array<{ type: string; object: { metadata: { name: string } } }>; close(): void } {
  const events: Array<{ type: string; object: { metadata: { name: string } } }> = [];
  const w = streamWatch({ port, ca, path }, { onEvent: (ev) => events.push(ev) });
  return { events, close: () => w.close() };
}

async function eventually(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('etcd over TLS, three members', () => {
  let cluster: LocalEtcdCluster;
  let s: ServerOn;
  let ca = '';

  before(async () => {
    cluster = await startLocalEtcdCluster({ members: 3 });
    const f = cluster.files;
    s = await startServerOn(cluster.endpoints, [`--etcd-cafile=${f.caFile}`, `--etcd-certfile=${f.certFile}`, `--etcd-keyfile=${f.keyFile}`]);
    await s.server.ready;
    ca = s.server.certificate.ca ?? '';
  });
  after(async () => {
    await s?.stop();
    await cluster?.stop();
  });

  it('serves CRUD and watches', async () => {
    assert.equal((await s.request('POST', cms, { body: cm('tls-a') })).status, 201);
    const got = await s.request('GET', `${cms}/tls-a`);
    assert.equal(got.status, 200);
    assert.equal(got.json().data.k, 'tls-a');
    const list = await s.request('GET', cms);
    assert.equal(list.status, 200);
    const watch = openWatch(s.port, ca, `${cms}?watch=1&resourceVersion=${list.json().metadata.resourceVersion}`);
    try {
      assert.equal((await s.request('PUT', `${cms}/tls-a`, { body: { ...cm('tls-a'), data: { k: 'changed' } } })).status, 200);
      assert.equal((await s.request('DELETE', `${cms}/tls-a`)).status, 200);
      await eventually('MODIFIED and DELETED events', () => watch.events.length >= 2);
      assert.deepEqual(
        watch.events.map((e) => e.type),
        ['MODIFIED', 'DELETED'],
      );
    } finally {
      watch.close();
    }
    assert.match((await s.request('GET', '/readyz?verbose')).text, /\[\+\]etcd-readiness ok/);
    // The database size is read from each member on a client of its own, with the same TLS files.
    const size = (await s.request('GET', '/metrics')).text.split('\n').find((l) => l.startsWith('apiserver_storage_size_bytes{'));
    assert.ok(size && Number(size.split(' ')[1]) > 0, `apiserver_storage_size_bytes: ${size}`);
  });

  it('each member can stop: requests and watches go on, and a member that comes back is used again', async () => {
    const watch = openWatch(s.port, ca, `${cms}?watch=1&resourceVersion=${(await s.request('GET', cms)).json().metadata.resourceVersion}`);
    try {
      for (const [i, member] of cluster.members.entries()) {
        const leader = (await etcdMetric(cluster, member, 'etcd_server_is_leader ')) === 1;
        await member.stop();
        // Without the leader, etcd itself answers nothing until the others elect one (about a
        // second): only then must every request succeed. Without a follower, nothing may fail.
        if (leader) await eventually('a new leader', async () => (await s.request('POST', cms, { body: cm(`leader-${i}`) })).status === 201, 10_000);
        for (let j = 0; j < 10; j++) {
          const name = `fo-${i}-${j}`;
          const created = await s.request('POST', cms, { body: cm(name) });
          assert.equal(created.status, 201, `create ${name} with ${member.name}${leader ? ' (the leader)' : ''} down: ${created.text}`);
          assert.equal((await s.request('GET', `${cms}/${name}`)).status, 200);
        }
        await eventually(`the watch to see the creates with ${member.name} down`, () => watch.events.filter((e) => e.object.metadata.name.startsWith(`fo-${i}-`)).length === 10);
        await member.start();
      }
      // A member's circuit half-opens 5s after it failed; then calls reach it again.
      const first = cluster.members[0] as EtcdMember;
      await new Promise((r) => setTimeout(r, 5500));
      const ranges = 'grpc_server_handled_total{grpc_code="OK",grpc_method="Range",';
      const before = await etcdMetric(cluster, first, ranges);
      for (let j = 0; j < 40; j++) assert.equal((await s.request('GET', `${cms}/fo-0-0`)).status, 200);
      const afterCalls = await etcdMetric(cluster, first, ranges);
      assert.ok(afterCalls > before, `${first.name} served no reads after it came back (${before} -> ${afterCalls})`);
    } finally {
      watch.close();
    }
  });

  it('a wrong CA or no client certificate fails the etcd checks with the TLS reason, within the timeout', async () => {
    const other = await createCertificateAuthority('not-the-etcd-ca');
    const wrongCA = join(cluster.dir, 'wrong-ca.crt');
    await writeFile(wrongCA, other.certPem);
    const f = cluster.files;
    for (const [what, flags, reason] of [
      ['wrong CA', [`--etcd-cafile=${wrongCA}`, `--etcd-certfile=${f.certFile}`, `--etcd-keyfile=${f.keyFile}`], /certificate/i],
      ['no client certificate', [`--etcd-cafile=${f.caFile}`], /alert bad certificate|alert certificate required/],
    ] as const) {
      const started = Date.now();
      const bad = await startServerOn(cluster.endpoints, [...flags, '--etcd-readycheck-timeout=1s', '--etcd-healthcheck-timeout=1s']);
      try {
        const ready = await bad.request('GET', '/readyz?verbose');
        assert.equal(ready.status, 500, what);
        assert.match(ready.text, /\[-\]etcd-readiness failed/, what);
        const check = await bad.request('GET', '/livez/etcd');
        assert.equal(check.status, 500, what);
        assert.match(check.text, /error getting data from etcd: /, what);
        assert.match(check.text, reason, `${what}: ${check.text}`);
        assert.ok(Date.now() - started < 20_000, `${what}: took ${Date.now() - started}ms`);
        const create = await bad.request('POST', cms, { body: cm('never') });
        // Refused by storage (5xx), or first by an admission plugin whose informers could not load
        // (kube's 403 "not yet ready to handle request").
        const refused = create.status >= 500 || (create.status === 403 && /not yet ready to handle request/.test(create.text));
        assert.ok(refused && create.json().kind === 'Status', `${what}: ${create.status} ${create.text}`);
      } finally {
        await bad.stop();
      }
    }
    await assert.rejects(startServerOn(cluster.endpoints, [`--etcd-cafile=${join(cluster.dir, 'missing.crt')}`]), /--etcd-cafile: ENOENT/);
  });
});
