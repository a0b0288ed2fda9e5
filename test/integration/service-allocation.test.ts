/**
 * Service allocation on a dual-stack server (10.96.0.0/26 and fd00:10::/120, node ports
 * 30000-30099): concurrent creates get distinct addresses and ports, full ranges answer kube's
 * code and message, RequireDualStack gets both families, a restart keeps every allocation, the
 * repair loop frees a leaked IPAddress and restores a missing one, the default ServiceCIDR is kept,
 * and DenyServiceExternalIPs refuses new external IPs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { useServer } from '../support/server.js';

const fx = useServer(
  {
    serviceClusterIPRange: '10.96.0.0/26,fd00:10::/120',
    serviceNetwork: { nodePortRange: '30000-30099', repairIntervalMs: 300, ipAddressLeakGraceMs: 5000 },
  },
  ['--enable-admission-plugins=DenyServiceExternalIPs'],
);
const svcs = '/api/v1/namespaces/default/services';

function svc(name: string, spec: Record<string, unknown> = {}) {
  return { metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80, protocol: 'TCP' }], ...spec } };
}

const ipv4InRange = (ip: string): boolean => /^10\.96\.0\.(\d+)$/.test(ip) && Number(ip.split('.')[3]) >= 1 && Number(ip.split('.')[3]) <= 62;
const nodePortsOf = (s: any): number[] => [...s.spec.ports.map((p: any) => p.nodePort), ...(s.spec.healthCheckNodePort ? [s.spec.healthCheckNodePort] : [])].filter(Boolean);

async function until(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function deleteAll(prefix: string): Promise<void> {
  const items = (await fx.request('GET', svcs)).json().items as any[];
  await Promise.all(items.filter((s) => s.metadata.name.startsWith(prefix)).map((s) => fx.request('DELETE', `${svcs}/${s.metadata.name}`)));
}

describe('service allocation (dual-stack server)', () => {
  it('keeps the default ServiceCIDR "kubernetes" with both CIDRs, Ready', async () => {
    await until('the default ServiceCIDR to be Ready', async () => {
      const res = await fx.request('GET', '/apis/networking.k8s.io/v1/servicecidrs/kubernetes');
      return res.status === 200 && res.json().status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True');
    });
    const cidr = (await fx.request('GET', '/apis/networking.k8s.io/v1/servicecidrs/kubernetes')).json();
    assert.deepEqual(cidr.spec.cidrs, ['10.96.0.0/26', 'fd00:10::/120']);
    assert.equal(cidr.status.conditions[0].message, 'Kubernetes default Service CIDR is ready');
  });

  it('RequireDualStack gets one address of each family; SingleStack and PreferDualStack as kube defaults them', async () => {
    const dual = await fx.request('POST', svcs, { body: svc('dual', { ipFamilyPolicy: 'RequireDualStack' }) });
    assert.equal(dual.status, 201, dual.text);
    const spec = dual.json().spec;
    assert.deepEqual(spec.ipFamilies, ['IPv4', 'IPv6']);
    assert.equal(spec.clusterIPs.length, 2);
    assert.ok(ipv4InRange(spec.clusterIPs[0]), spec.clusterIPs[0]);
    assert.match(spec.clusterIPs[1], /^fd00:10::[0-9a-f]{1,2}$/);
    assert.equal(spec.clusterIP, spec.clusterIPs[0]);
    for (const ip of spec.clusterIPs) assert.equal((await fx.request('GET', `/apis/networking.k8s.io/v1/ipaddresses/${ip}`)).json().spec.parentRef.name, 'dual');
    const v6first = (await fx.request('POST', svcs, { body: svc('v6first', { ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv6'] }) })).json().spec;
    assert.deepEqual(v6first.ipFamilies, ['IPv6', 'IPv4']);
    const single = (await fx.request('POST', svcs, { body: svc('single') })).json().spec;
    assert.deepEqual([single.ipFamilyPolicy, single.ipFamilies, single.clusterIPs.length], ['SingleStack', ['IPv4'], 1]);
    // Upgrade in place, then downgrade: the secondary address is allocated, then released.
    const up = await fx.request('PATCH', `${svcs}/single`, { body: { spec: { ipFamilyPolicy: 'RequireDualStack' } }, headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(up.status, 200, up.text);
    const second = up.json().spec.clusterIPs[1];
    assert.match(second, /^fd00:10::/);
    const bad = await fx.request('PATCH', `${svcs}/single`, { body: { spec: { ipFamilyPolicy: 'PreferDualStack', clusterIPs: [single.clusterIP] } }, headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(bad.status, 422);
    assert.equal(bad.json().message, `Service "single" is invalid: spec.ipFamilyPolicy: Invalid value: "PreferDualStack": must be 'SingleStack' to release the secondary cluster IP`);
    const down = await fx.request('PATCH', `${svcs}/single`, { body: { spec: { ipFamilyPolicy: 'SingleStack' } }, headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(down.status, 200, down.text);
    assert.deepEqual(down.json().spec.clusterIPs, [single.clusterIP]);
    assert.equal((await fx.request('GET', `/apis/networking.k8s.io/v1/ipaddresses/${second}`)).status, 404);
    // Headless: no address, both families when there is no selector.
    const headless = (await fx.request('POST', svcs, { body: { metadata: { name: 'headless' }, spec: { clusterIP: 'None', ports: [{ port: 80 }] } } })).json().spec;
    assert.deepEqual([headless.clusterIPs, headless.ipFamilyPolicy, headless.ipFamilies], [['None'], 'RequireDualStack', ['IPv4', 'IPv6']]);
    const wrongFamily = await fx.request('POST', svcs, { body: svc('wrong', { clusterIP: '10.96.0.9', ipFamilies: ['IPv6'] }) });
    assert.equal(wrongFamily.status, 422);
    assert.equal(wrongFamily.json().message, 'Service "wrong" is invalid: spec.clusterIPs[0]: Invalid value: "10.96.0.9": expected an IPv6 value as indicated by `ipFamilies[0]`');
    await Promise.all(['dual', 'v6first', 'single', 'headless'].map((n) => fx.request('DELETE', `${svcs}/${n}`)));
  });

  it('50 Services created at once get 50 distinct cluster IPs and node ports, all in range', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => fx.request('POST', svcs, { body: svc(`many-${i}`, { type: 'NodePort' }) })));
    for (const r of results) assert.equal(r.status, 201, r.text);
    const specs = results.map((r) => r.json().spec);
    const ips = specs.map((s) => s.clusterIP);
    assert.equal(new Set(ips).size, 50, 'distinct cluster IPs');
    for (const ip of ips) assert.ok(ipv4InRange(ip), `${ip} in 10.96.0.0/26`);
    const ports = specs.map((s) => s.ports[0].nodePort);
    assert.equal(new Set(ports).size, 50, 'distinct node ports');
    for (const p of ports) assert.ok(p >= 30000 && p <= 30099, `${p} in 30000-30099`);
    // The bitmap in etcd holds exactly these ports (kube's RangeAllocation at /registry/ranges/servicenodeports).
    const etcd = new Etcd3({ hosts: fx.etcd.endpoint });
    try {
      const stored = JSON.parse((await etcd.get('/registry/ranges/servicenodeports').string()) ?? '{}');
      assert.equal(stored.kind, 'RangeAllocation');
      assert.equal(stored.range, '30000-30099');
      const bytes = Buffer.from(stored.data, 'base64');
      const held: number[] = [];
      for (let i = 0; i < bytes.length * 8; i++) if ((bytes[bytes.length - 1 - Math.floor(i / 8)] as number) & (1 << i % 8)) held.push(30000 + i);
      assert.deepEqual(held, [...ports].sort((a, b) => a - b));
    } finally {
      etcd.close();
    }
  });

  it('node ports: a requested port once, out of range and duplicates refused with kube\'s 422, a full range 500', async () => {
    const taken = (await fx.request('GET', `${svcs}/many-0`)).json().spec.ports[0].nodePort;
    const dup = await fx.request('POST', svcs, { body: svc('dup', { type: 'NodePort', ports: [{ port: 80, nodePort: taken }] }) });
    assert.equal(dup.status, 422);
    assert.equal(dup.json().message, `Service "dup" is invalid: spec.ports[0].nodePort: Invalid value: ${taken}: provided port is already allocated`);
    const out = await fx.request('POST', svcs, { body: svc('out', { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] }) });
    assert.equal(out.status, 422);
    assert.equal(out.json().message, 'Service "out" is invalid: spec.ports[0].nodePort: Invalid value: 31000: provided port is not in the valid range. The range of valid ports is 30000-30099');
    // The refused creates kept no cluster IP.
    const used = new Set((await fx.request('GET', '/apis/networking.k8s.io/v1/ipaddresses')).json().items.map((a: any) => a.spec.parentRef.name));
    assert.ok(!used.has('dup') && !used.has('out'));
    // A LoadBalancer with externalTrafficPolicy Local also takes a health check port; allocateLoadBalancerNodePorts false takes none.
    const lb = (await fx.request('POST', svcs, { body: svc('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] }) })).json().spec;
    assert.equal(nodePortsOf({ spec: lb }).length, 3);
    const noPorts = (await fx.request('POST', svcs, { body: svc('lb-none', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false }) })).json().spec;
    assert.equal(noPorts.ports[0].nodePort, undefined);
    // Fill the rest: 100 - 50 - 3 = 47 ports left.
    const fill = (await fx.request('POST', svcs, { body: svc('fill', { type: 'NodePort', ports: Array.from({ length: 47 }, (_, i) => ({ name: `p${i}`, port: 1000 + i })) }) }));
    assert.equal(fill.status, 201, fill.text);
    const full = await fx.request('POST', svcs, { body: svc('one-more', { type: 'NodePort' }) });
    assert.equal(full.status, 500);
    assert.equal(full.json().message, 'Internal error occurred: failed to allocate a nodePort: range is full');
    // Turning a NodePort Service into ClusterIP gives its ports back.
    const toClusterIP = await fx.request('PATCH', `${svcs}/fill`, { body: { spec: { type: 'ClusterIP' } }, headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(toClusterIP.status, 200, toClusterIP.text);
    assert.equal((await fx.request('POST', svcs, { body: svc('one-more', { type: 'NodePort' }) })).status, 201);
  });

  it('a full cluster IP range answers kube\'s 500 InternalError', async () => {
    // 62 usable IPv4 addresses: kubernetes, 50 many-*, lb, lb-none, fill, one-more hold 55.
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await fx.request('POST', svcs, { body: svc(`ipfill-${i}`) })).status);
    assert.deepEqual(statuses, [201, 201, 201, 201, 201, 201, 201, 500]);
    const full = await fx.request('POST', svcs, { body: svc('ip-one-more') });
    assert.equal(full.status, 500);
    assert.equal(full.json().reason, 'InternalError');
    assert.equal(full.json().message, 'Internal error occurred: failed to allocate a serviceIP: range is full');
    // A dual-stack request whose IPv4 half fails keeps no IPv6 address either.
    const before = (await fx.request('GET', '/apis/networking.k8s.io/v1/ipaddresses')).json().items.length;
    assert.equal((await fx.request('POST', svcs, { body: svc('dual-full', { ipFamilyPolicy: 'RequireDualStack' }) })).status, 500);
    assert.equal((await fx.request('GET', '/apis/networking.k8s.io/v1/ipaddresses')).json().items.length, before);
    await deleteAll('ipfill-');
  });

  it('a ServiceCIDR object adds a range to allocate from', async () => {
    const outside = await fx.request('POST', svcs, { body: svc('extra-ip', { clusterIP: '10.97.0.5' }) });
    assert.equal(outside.status, 422);
    assert.match(outside.json().message, /the provided network does not match the current range/);
    const cidr = await fx.request('POST', '/apis/networking.k8s.io/v1/servicecidrs', { body: { metadata: { name: 'extra' }, spec: { cidrs: ['10.97.0.0/28'] } } });
    assert.equal(cidr.status, 201, cidr.text);
    const inside = await fx.request('POST', svcs, { body: svc('extra-ip', { clusterIP: '10.97.0.5' }) });
    assert.equal(inside.status, 201, inside.text);
    assert.equal((await fx.request('GET', '/apis/networking.k8s.io/v1/ipaddresses/10.97.0.5')).json().spec.parentRef.name, 'extra-ip');
    assert.equal((await fx.request('DELETE', `${svcs}/extra-ip`)).status, 200);
    assert.equal((await fx.request('GET', '/apis/networking.k8s.io/v1/ipaddresses/10.97.0.5')).status, 404);
  });

  it('a restart keeps every allocation; new ones do not collide', async () => {
    const snapshot = async () => {
      const items = (await fx.request('GET', svcs)).json().items as any[];
      return new Map(items.map((s) => [s.metadata.name, { ips: s.spec.clusterIPs, ports: nodePortsOf(s) }]));
    };
    const before = await snapshot();
    await fx.restart();
    const after = await snapshot();
    assert.deepEqual(after, before);
    await deleteAll('many-');
    const fresh = await Promise.all(Array.from({ length: 10 }, (_, i) => fx.request('POST', svcs, { body: svc(`fresh-${i}`, { type: 'NodePort' }) })));
    for (const r of fresh) assert.equal(r.status, 201, r.text);
    const heldIPs = new Set<string>();
    const heldPorts = new Set<number>();
    for (const [name, a] of await snapshot()) {
      for (const ip of a.ips ?? []) if (ip !== 'None') assert.ok(!heldIPs.has(ip), `${name}: ${ip} held twice`), heldIPs.add(ip);
      for (const p of a.ports) assert.ok(!heldPorts.has(p), `${name}: port ${p} held twice`), heldPorts.add(p);
    }
  });

  it('the repair loop frees a leaked IPAddress and restores a missing one', async () => {
    // An address of the range no Service holds (earlier tests took addresses at random).
    const taken = new Set(((await fx.request('GET', '/apis/networking.k8s.io/v1/ipaddresses')).json().items as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name));
    const free = [...Array(62).keys()].map((i) => `10.96.0.${62 - i}`).find((ip) => !taken.has(ip)) as string;
    const leaked = await fx.request('POST', '/apis/networking.k8s.io/v1/ipaddresses', {
      body: {
        metadata: { name: free, labels: { 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' } },
        spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'gone' } },
      },
    });
    assert.equal(leaked.status, 201, leaked.text);
    const owned = (await fx.request('GET', `${svcs}/fresh-0`)).json().spec.clusterIP;
    assert.equal((await fx.request('DELETE', `/apis/networking.k8s.io/v1/ipaddresses/${owned}`)).status, 200);
    await until('the leaked address to be freed', async () => (await fx.request('GET', `/apis/networking.k8s.io/v1/ipaddresses/${free}`)).status === 404, 20_000);
    await until('the missing address to be restored', async () => (await fx.request('GET', `/apis/networking.k8s.io/v1/ipaddresses/${owned}`)).status === 200);
    const events = (await fx.request('GET', '/api/v1/namespaces/default/events')).json().items as any[];
    assert.ok(events.some((e) => e.reason === 'IPAddressNotAllocated' && e.message === `IPAddress: ${free} for Service default/gone appears to have leaked: cleaning up`));
    assert.ok(events.some((e) => e.reason === 'ClusterIPNotAllocated' && e.message === `Cluster IP [IPv4]: ${owned} is not allocated; repairing` && e.involvedObject.name === 'fresh-0'));
  });

  it('DenyServiceExternalIPs refuses new external IPs and allows removing them', async () => {
    const denied = await fx.request('POST', svcs, { body: svc('ext', { externalIPs: ['192.0.2.5'] }) });
    assert.equal(denied.status, 403);
    assert.equal(denied.json().message, 'services "ext" is forbidden: Use of external IPs is denied by admission control');
    assert.equal((await fx.request('POST', svcs, { body: svc('ext') })).status, 201);
    const add = await fx.request('PATCH', `${svcs}/ext`, { body: { spec: { externalIPs: ['192.0.2.5'] } }, headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(add.status, 403);
  });
});
