/** core/v1 endpoints and discovery.k8s.io endpointslices: columns and cells as kube prints them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpointSlicePrinter, endpointsPrinter } from './endpoints.js';
import { ago, columnSpec, now } from './testing.js';

type J = Record<string, unknown>;

function endpoints(subsets: J[] | undefined): J {
  return { metadata: { name: 'kube-dns', creationTimestamp: ago(600) }, ...(subsets ? { subsets } : {}) };
}

describe('endpoints', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(endpointsPrinter), [
      ['Name', 'string', 'name', 0],
      ['Endpoints', 'string', '', 0],
      ['Age', 'string', '', 0],
    ]);
  });
  it('print ip:port for each address and port, the first three then a count', () => {
    const e = endpoints([
      {
        addresses: [{ ip: '10.1.0.20' }, { ip: '10.1.0.21' }],
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, protocol: 'TCP' },
          { name: 'metrics', port: 9153, protocol: 'TCP' },
        ],
      },
    ]);
    assert.deepEqual(endpointsPrinter.cells(e, now), ['kube-dns', '10.1.0.20:53,10.1.0.21:53,10.1.0.20:53 + 3 more...', '10m']);
  });
  it('print bare IPs of a subset without ports, and bracket IPv6', () => {
    assert.equal(endpointsPrinter.cells(endpoints([{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] }]), now)[1], '10.0.0.1,10.0.0.2');
    assert.equal(endpointsPrinter.cells(endpoints([{ addresses: [{ ip: 'fd00::1' }], ports: [{ port: 443 }] }]), now)[1], '[fd00::1]:443');
  });
  it('print exactly three entries without a count', () => {
    const e = endpoints([{ addresses: [{ ip: 'a' }, { ip: 'b' }, { ip: 'c' }], ports: [{ port: 1 }] }]);
    assert.equal(endpointsPrinter.cells(e, now)[1], 'a:1,b:1,c:1');
  });
  it('print <none> without subsets, and nothing for subsets without addresses', () => {
    assert.equal(endpointsPrinter.cells(endpoints(undefined), now)[1], '<none>');
    assert.equal(endpointsPrinter.cells(endpoints([{ notReadyAddresses: [{ ip: '10.0.0.9' }], ports: [{ port: 80 }] }]), now)[1], '');
  });
});

describe('endpointslices', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(endpointSlicePrinter), [
      ['Name', 'string', 'name', 0],
      ['AddressType', 'string', '', 0],
      ['Ports', 'string', '', 0],
      ['Endpoints', 'string', '', 0],
      ['Age', 'string', '', 0],
    ]);
  });
  it('print address type, ports and addresses', () => {
    const slice = {
      metadata: { name: 'kube-dns-abc12', creationTimestamp: ago(3 * 3600) },
      addressType: 'IPv4',
      ports: [{ name: 'dns', port: 53, protocol: 'UDP' }, { name: 'dns-tcp', port: 53, protocol: 'TCP' }, { name: 'metrics', port: 9153 }, { name: 'extra', port: 1 }],
      endpoints: [{ addresses: ['10.1.0.20'] }, { addresses: ['10.1.0.21', '10.1.0.22'] }, { addresses: ['10.1.0.23'] }],
    };
    assert.deepEqual(endpointSlicePrinter.cells(slice, now), ['kube-dns-abc12', 'IPv4', '53,53,9153 + 1 more...', '10.1.0.20,10.1.0.21,10.1.0.22 + 1 more...', '3h']);
  });
  it('print a port without a number by its name, else *; <unset> for none', () => {
    const slice = { metadata: { name: 's' }, addressType: 'FQDN', ports: [{ name: 'http' }, {}], endpoints: [] };
    assert.deepEqual(endpointSlicePrinter.cells(slice, now), ['s', 'FQDN', 'http,*', '<unset>', '<unknown>']);
    assert.equal(endpointSlicePrinter.cells({ metadata: { name: 's' } }, now)[2], '<unset>');
  });
});
