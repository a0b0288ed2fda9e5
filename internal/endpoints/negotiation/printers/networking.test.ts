/** networking.k8s.io/v1 ingresses: columns and cells as kube prints them (cf. kube's TestPrintIngress). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ingressPrinter } from './networking.js';
import { ago, columnSpec, day, now } from './testing.js';

describe('ingresses', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(ingressPrinter), [
      ['Name', 'string', 'name', 0],
      ['Class', 'string', '', 0],
      ['Hosts', 'string', '', 0],
      ['Address', 'string', '', 0],
      ['Ports', 'string', '', 0],
      ['Age', 'string', '', 0],
    ]);
  });
  it('print a default-backend ingress (kube TestPrintIngress)', () => {
    const ing = {
      metadata: { name: 'test1', creationTimestamp: ago(10 * 365 * day) },
      spec: { ingressClassName: 'foo', defaultBackend: { service: { name: 'default-backend', port: { number: 80 } } } },
      status: { loadBalancer: { ingress: [{ ip: '2.3.4.5', hostname: 'localhost.localdomain' }] } },
    };
    assert.deepEqual(ingressPrinter.cells(ing, now), ['test1', 'foo', '*', '2.3.4.5', '80', '10y']);
  });
  it('list the first three hosts, count the remaining rules, and show 443 with TLS', () => {
    const ing = {
      metadata: { name: 'shop' },
      spec: { rules: [{ host: 'a.example.com' }, {}, { host: 'b.example.com' }, { host: 'c.example.com' }, { host: 'd.example.com' }], tls: [{ hosts: ['a.example.com'] }] },
      status: { loadBalancer: { ingress: [{ hostname: 'lb.example.net' }, { ip: '198.51.100.7' }] } },
    };
    assert.deepEqual(ingressPrinter.cells(ing, now), ['shop', '<none>', 'a.example.com,b.example.com,c.example.com + 2 more...', '198.51.100.7,lb.example.net', '80, 443', '<unknown>']);
  });
});
