/**
 * Services get cluster IPs from --service-cluster-ip-range, held by IPAddress reservations in
 * etcd: no address is handed out twice, and a deleted Service gives its address back.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';

const fx = useServer({ serviceClusterIPRange: '10.96.0.0/28', advertiseAddress: '192.0.2.10' });
const svcs = '/api/v1/namespaces/default/services';

function svc(name: string, spec: Record<string, unknown> = {}) {
  return { metadata: { name }, spec: { ports: [{ port: 80, protocol: 'TCP' }], ...spec } };
}

describe('default/kubernetes', () => {
  it('the Service holds the first address on 443 and the Endpoints point at this server', async () => {
    const svc = (await fx.request('GET', `${svcs}/kubernetes`)).json();
    assert.equal(svc.spec.clusterIP, '10.96.0.1');
    assert.deepEqual(svc.spec.ports, [{ name: 'https', port: 443, protocol: 'TCP', targetPort: fx.port }]);
    assert.deepEqual(svc.metadata.labels, { component: 'apiserver', provider: 'kubernetes' });
    const ep = (await fx.request('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).json();
    assert.deepEqual(ep.subsets, [{ addresses: [{ ip: '192.0.2.10' }], ports: [{ name: 'https', port: fx.port, protocol: 'TCP' }] }]);
  });
});

describe('cluster IP allocation', () => {
  it('allocates a free address in the range and fills clusterIPs and the family', async () => {
    const res = await fx.request('POST', svcs, { body: svc('a') });
    assert.equal(res.status, 201, res.text);
    const spec = res.json().spec;
    assert.match(spec.clusterIP, /^10\.96\.0\.([1-9]|1[0-4])$/);
    assert.deepEqual(spec.clusterIPs, [spec.clusterIP]);
    assert.deepEqual(spec.ipFamilies, ['IPv4']);
    assert.equal(spec.ipFamilyPolicy, 'SingleStack');
  });

  it('a requested address is given once; the second asker gets 422', async () => {
    const taken = new Set((await fx.request('GET', '/api/v1/services')).json().items.map((s: any) => s.spec.clusterIP));
    const free = [...Array(14).keys()].map((i) => `10.96.0.${i + 1}`).find((ip) => !taken.has(ip)) as string;
    assert.equal((await fx.request('POST', svcs, { body: svc('fixed', { clusterIP: free }) })).status, 201);
    const clash = await fx.request('POST', svcs, { body: svc('fixed2', { clusterIP: free }) });
    assert.equal(clash.status, 422);
    assert.equal(clash.json().details.causes[0].field, 'spec.clusterIPs');
    assert.equal(clash.json().message, `Service "fixed2" is invalid: spec.clusterIPs: Invalid value: []string{"${free}"}: failed to allocate IP ${free}: provided IP is already allocated`);
    const outside = await fx.request('POST', svcs, { body: svc('outside', { clusterIP: '10.1.0.9' }) });
    assert.equal(outside.status, 422);
    // kube 1.33's allocator (MultiCIDRServiceAllocator) has no range holding the address at all.
    assert.equal(outside.json().message, 'Service "outside" is invalid: spec.clusterIPs: Invalid value: []string{"10.1.0.9"}: failed to allocate IP 10.1.0.9: the provided network does not match the current range');
    const network = await fx.request('POST', svcs, { body: svc('network', { clusterIP: '10.96.0.0' }) });
    assert.equal(network.json().message, 'Service "network" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.0"}: failed to allocate IP 10.96.0.0: the provided IP (10.96.0.0) is not in the valid range. The range of valid IPs is 10.96.0.0/28');
    // Deleting gives the address back.
    assert.equal((await fx.request('DELETE', `${svcs}/fixed`)).status, 200);
    assert.equal((await fx.request('POST', svcs, { body: svc('fixed2', { clusterIP: free }) })).status, 201);
  });

  it('ExternalName and headless Services take no address; a full range is an internal error, not a crash', async () => {
    const ext = await fx.request('POST', svcs, { body: { metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'example.com' } } });
    assert.equal(ext.status, 201, ext.text);
    assert.equal(ext.json().spec.clusterIP, undefined);
    const headless = await fx.request('POST', svcs, { body: svc('headless', { clusterIP: 'None' }) });
    assert.equal(headless.status, 201, headless.text);
    assert.equal(headless.json().spec.clusterIP, 'None');
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) statuses.push((await fx.request('POST', svcs, { body: svc(`fill-${i}`) })).status);
    assert.ok(statuses.includes(500), 'the /28 fills up');
    const full = await fx.request('POST', svcs, { body: svc('one-more') });
    assert.equal(full.status, 500);
    assert.match(full.json().message, /failed to allocate a serviceIP: range is full/);
    const ips = (await fx.request('GET', svcs)).json().items.map((s: any) => s.spec.clusterIP).filter((ip: string) => ip && ip !== 'None');
    assert.equal(new Set(ips).size, ips.length, 'no address is held twice');
  });

  it('dry-run create shows the network address, as kube does, and keeps nothing', async () => {
    await fx.request('DELETE', `${svcs}/a`);
    const dry = await fx.request('POST', `${svcs}?dryRun=All`, { body: svc('dry') });
    assert.equal(dry.status, 201, dry.text);
    assert.equal(dry.json().spec.clusterIP, '10.96.0.0');
    assert.equal((await fx.request('GET', `${svcs}/dry`)).status, 404);
    assert.equal((await fx.request('POST', svcs, { body: svc('after-dry') })).status, 201, 'the address a took is free again');
  });
});
