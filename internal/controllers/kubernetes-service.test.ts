import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { externalAddress } from './kubernetes-service.js';

describe('external address', () => {
  it('adds the secure port to a host without one, as kube does', () => {
    assert.equal(externalAddress('api.example.com', 6443), 'api.example.com:6443');
    assert.equal(externalAddress('api.example.com:443', 6443), 'api.example.com:443');
    assert.equal(externalAddress('192.0.2.10', 6443), '192.0.2.10:6443');
    assert.equal(externalAddress('2001:db8::1', 6443), '[2001:db8::1]:6443');
    assert.equal(externalAddress('[2001:db8::1]:443', 6443), '[2001:db8::1]:443');
  });
});
