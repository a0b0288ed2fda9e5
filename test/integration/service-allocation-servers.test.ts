/**
 * Two API servers on one etcd hand out cluster IPs and node ports at the same time: every
 * address is one create-only IPAddress, every port one compare-and-swap of the shared
 * /registry/ranges/servicenodeports bitmap, so no address or port goes to two Services.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../../hack/local-etcd.js';
import { createLogger } from '../../internal/observability/logging.js';
import { startServer, type RunningServer } from '../../internal/server/server.js';
import { httpsCall, testServerOptions, useServer } from '../support/server.js';

const shared = { serviceClusterIPRange: '10.96.0.0/26', serviceNetwork: { nodePortRange: '30000-30049' } };
const fx = useServer(shared);
let second: { server: RunningServer; port: number; ca: string; dir: string };

describe('two API servers allocating at once', () => {
  before(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-second-'));
    const port = await freePort();
    const server = await startServer(testServerOptions(fx.etcd.endpoint, port, join(dir, 'certs'), shared), createLogger(0, true));
    await server.ready;
    second = { server, port, ca: server.certificate.ca ?? '', dir };
  });
  after(async () => {
    await second?.server.stop();
    if (second?.dir) await rm(second.dir, { recursive: true, force: true });
  });

  it('never give one cluster IP or node port to two Services', async () => {
    const body = (name: string) => ({ metadata: { name }, spec: { type: 'NodePort', selector: { app: name }, ports: [{ port: 80 }] } });
    const path = '/api/v1/namespaces/default/services';
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? fx.request('POST', path, { body: body(`s-${i}`) }) : httpsCall(second.port, second.ca, 'POST', path, { body: body(`s-${i}`) }))),
    );
    for (const r of results) assert.equal(r.status, 201, r.text);
    const specs = results.map((r) => r.json().spec);
    assert.equal(new Set(specs.map((s) => s.clusterIP)).size, 40, 'distinct cluster IPs');
    assert.equal(new Set(specs.map((s) => s.ports[0].nodePort)).size, 40, 'distinct node ports');
    // 10 ports are left for 26 more Services (addresses are left for 21): 10 get one, whichever
    // server they asked, and the others get kube's 500 from either. All 26 ask for an address at
    // once, so one may find the addresses spent before the refused creates give theirs back.
    const rest = await Promise.all(
      Array.from({ length: 26 }, (_, i) => (i % 2 === 0 ? fx.request('POST', path, { body: body(`r-${i}`) }) : httpsCall(second.port, second.ca, 'POST', path, { body: body(`r-${i}`) }))),
    );
    assert.equal(rest.filter((r) => r.status === 201).length, 10);
    for (const r of rest.filter((x) => x.status !== 201)) assert.match(r.json().message, /^Internal error occurred: failed to allocate a (nodePort|serviceIP): range is full$/);
    const all = (await fx.request('GET', path)).json().items as any[];
    const ports = all.filter((s) => s.spec.type === 'NodePort').map((s) => s.spec.ports[0].nodePort);
    assert.equal(ports.length, 50);
    assert.equal(new Set(ports).size, 50);
    const ips = all.map((s) => s.spec.clusterIP);
    assert.equal(new Set(ips).size, ips.length, 'no address twice, and none kept by a refused create');
    assert.equal((await fx.request('GET', '/apis/networking.k8s.io/v1/ipaddresses')).json().items.length, ips.length);
  });
});
