import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorMessage } from '../../../validation/field-error.js';
import { requestContext } from '../shared/testing.js';
import { endpointsStrategy } from './strategy.js';

const ctx = requestContext('POST', '/api/v1/namespaces/ns/endpoints');

describe('endpoints strategy', () => {
  it('accepts subsets with usable addresses and ports', () => {
    const ep = { metadata: { name: 'web' }, subsets: [{ addresses: [{ ip: '10.1.2.3', hostname: 'web-0', nodeName: 'n1' }], ports: [{ port: 80, protocol: 'TCP' }] }] };
    assert.deepEqual(endpointsStrategy.validate(ctx, ep), []);
  });

  it('requires addresses and refuses bad or special IPs', () => {
    const ep = {
      metadata: { name: 'web' },
      subsets: [{ ports: [{ port: 80 }] }, { addresses: [{ ip: 'ten' }, { ip: '127.0.0.1' }], ports: [{ port: 80 }, { port: 81, name: 'b' }] }],
    };
    assert.deepEqual(endpointsStrategy.validate(ctx, ep).map(fieldErrorMessage), [
      'subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`',
      'subsets[1].addresses[0].ip: Invalid value: "ten": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'subsets[1].addresses[0].ip: Invalid value: "ten": must be a valid IP address',
      'subsets[1].addresses[1].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'subsets[1].ports[0].name: Required value',
    ]);
  });

  it('creates on update and validates updates the same way', () => {
    assert.equal(endpointsStrategy.allowCreateOnUpdate, true);
    const bad = { metadata: { name: 'web' }, subsets: [{}] };
    assert.equal(endpointsStrategy.validateUpdate(ctx, bad, { metadata: { name: 'web' } }).length, 1);
  });
});
