/** core/v1 services: columns and cells as kube prints them (cf. kube's TestPrintServiceLoadBalancer). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { servicePrinter } from './services.js';
import { ago, columnSpec, day, now } from './testing.js';

type J = Record<string, unknown>;

function service(spec: J, status: J = {}): J {
  return { metadata: { name: 'svc', creationTimestamp: ago(5 * day) }, spec, status };
}

describe('services', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(servicePrinter), [
      ['Name', 'string', 'name', 0],
      ['Type', 'string', '', 0],
      ['Cluster-IP', 'string', '', 0],
      ['External-IP', 'string', '', 0],
      ['Port(s)', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['Selector', 'string', '', 1],
    ]);
  });
  it('print a ClusterIP service', () => {
    const s = service({ type: 'ClusterIP', clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ports: [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }, { port: 9153, protocol: 'TCP' }], selector: { 'k8s-app': 'kube-dns' } });
    assert.deepEqual(servicePrinter.cells(s, now), ['svc', 'ClusterIP', '10.96.0.10', '<none>', '53/UDP,53/TCP,9153/TCP', '5d', 'k8s-app=kube-dns']);
  });
  it('print node ports and external IPs', () => {
    const s = service({ type: 'NodePort', clusterIPs: ['10.0.0.5'], externalIPs: ['192.0.2.1', '192.0.2.2'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] });
    assert.deepEqual(servicePrinter.cells(s, now), ['svc', 'NodePort', '10.0.0.5', '192.0.2.1,192.0.2.2', '80:30080/TCP', '5d', '<none>']);
  });
  it('print a pending load balancer', () => {
    const s = service({ type: 'LoadBalancer', clusterIPs: ['1.3.4.5'], ports: [{ port: 80, protocol: 'TCP' }, { port: 8090, protocol: 'UDP' }, { port: 8000, protocol: 'TCP' }, { port: 7777, protocol: 'SCTP' }] });
    assert.deepEqual(servicePrinter.cells(s, now).slice(1, 5), ['LoadBalancer', '1.3.4.5', '<pending>', '80/TCP,8090/UDP,8000/TCP,7777/SCTP']);
  });
  it('print every load balancer address unclipped, since the server prints wide', () => {
    const s = service(
      { type: 'LoadBalancer', clusterIPs: ['1.5.6.7'], ports: [{ port: 80, protocol: 'TCP' }], selector: { foo: 'bar' } },
      { loadBalancer: { ingress: [{ ip: '3.4.5.6' }, { ip: '2.3.4.5' }, { ip: '5.6.7.8', hostname: 'host5678' }, { hostname: 'lb.example.com' }, { ip: '2.3.4.5' }] } },
    );
    assert.deepEqual(servicePrinter.cells(s, now), ['svc', 'LoadBalancer', '1.5.6.7', '2.3.4.5,3.4.5.6,5.6.7.8,lb.example.com', '80/TCP', '5d', 'foo=bar']);
  });
  it('append external IPs to load balancer addresses', () => {
    const s = service({ type: 'LoadBalancer', clusterIPs: ['1.2.3.4'], externalIPs: ['9.9.9.9'], ports: [] }, { loadBalancer: { ingress: [{ ip: '2.3.4.5' }] } });
    assert.deepEqual(servicePrinter.cells(s, now).slice(3, 5), ['2.3.4.5,9.9.9.9', '<none>']);
  });
  it('print an ExternalName service and a headless one', () => {
    const ext = service({ type: 'ExternalName', externalName: 'db.example.com', ports: [{ port: 5432, protocol: 'TCP' }] });
    assert.deepEqual(servicePrinter.cells(ext, now).slice(1, 5), ['ExternalName', '<none>', 'db.example.com', '5432/TCP']);
    const headless = service({ type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'], selector: { app: 'db' } });
    assert.deepEqual(servicePrinter.cells(headless, now).slice(1, 5), ['ClusterIP', 'None', '<none>', '<none>']);
  });
  it('print <unknown> for a service without a type', () => {
    assert.equal(servicePrinter.cells(service({}), now)[3], '<unknown>');
  });
});
