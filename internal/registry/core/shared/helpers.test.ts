import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base64Error } from './base64.js';
import { isConfigMapKey } from './config-key.js';
import { validateIP, validateNonSpecialIP, isCIDR } from './ip.js';
import { isValidPortName } from './ports.js';
import { parseQuantityNanos } from './quantity.js';
import { computePodQOS } from './qos.js';
import { semanticEqual } from './semantic-equal.js';

describe('base64 as Go decodes []byte', () => {
  it('accepts standard base64 with padding and embedded newlines', () => {
    assert.equal(base64Error(''), undefined);
    assert.equal(base64Error('aGVsbG8='), undefined);
    assert.equal(base64Error('aGVs\nbG8='), undefined);
    assert.equal(base64Error('YQ=='), undefined);
  });
  it("names the byte Go's CorruptInputError names", () => {
    assert.equal(base64Error('abc'), 'illegal base64 data at input byte 0');
    assert.equal(base64Error('abcde'), 'illegal base64 data at input byte 4');
    assert.equal(base64Error('ab!d'), 'illegal base64 data at input byte 2');
    assert.equal(base64Error('a==='), 'illegal base64 data at input byte 1');
    assert.equal(base64Error('ab='), 'illegal base64 data at input byte 3');
    assert.equal(base64Error('ab==x'), 'illegal base64 data at input byte 4');
    assert.equal(base64Error('aGVsbG8_'), 'illegal base64 data at input byte 7');
  });
});

describe('config keys', () => {
  it("gives kube's texts", () => {
    assert.deepEqual(isConfigMapKey('good.key-1_A'), []);
    assert.deepEqual(isConfigMapKey('bad key'), [
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ]);
    assert.deepEqual(isConfigMapKey('..'), ["must not be '..'"]);
    assert.deepEqual(isConfigMapKey('..a'), ["must not start with '..'"]);
    assert.deepEqual(isConfigMapKey('a'.repeat(254)), ['must be no more than 253 characters']);
  });
});

describe('quantities', () => {
  it('parses to exact nano-units', () => {
    assert.equal(parseQuantityNanos('100m'), 100_000_000n);
    assert.equal(parseQuantityNanos('0.1'), 100_000_000n);
    assert.equal(parseQuantityNanos('1Gi'), 1073741824n * 1_000_000_000n);
    assert.equal(parseQuantityNanos('1e3'), 1000n * 1_000_000_000n);
    assert.equal(parseQuantityNanos(2), 2_000_000_000n);
    assert.equal(parseQuantityNanos('-1'), -1_000_000_000n);
    assert.equal(parseQuantityNanos('1.5k'), 1500n * 1_000_000_000n);
    assert.equal(parseQuantityNanos('abc'), undefined);
    assert.equal(parseQuantityNanos('1 Gi'), undefined);
  });
});

describe('pod QoS', () => {
  const container = (resources: unknown): unknown => ({ name: 'c', image: 'i', resources });
  it('is BestEffort without cpu or memory', () => {
    assert.equal(computePodQOS({ containers: [container({})] }), 'BestEffort');
    assert.equal(computePodQOS({ containers: [container({ requests: { 'nvidia.com/gpu': '1' } })] }), 'BestEffort');
  });
  it('is Guaranteed when limits equal requests (a missing request defaults to the limit)', () => {
    assert.equal(computePodQOS({ containers: [container({ limits: { cpu: '1', memory: '1Gi' } })] }), 'Guaranteed');
    assert.equal(
      computePodQOS({ containers: [container({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1000m', memory: '1024Mi' } })] }),
      'Guaranteed',
    );
  });
  it('is Burstable otherwise', () => {
    assert.equal(computePodQOS({ containers: [container({ requests: { cpu: '100m' } })] }), 'Burstable');
    assert.equal(computePodQOS({ containers: [container({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } })] }), 'Burstable');
    assert.equal(
      computePodQOS({ containers: [container({ limits: { cpu: '1', memory: '1Gi' } }), container({ requests: { cpu: '1' } })] }),
      'Burstable',
    );
  });
});

describe('semantic equality', () => {
  it('treats Go zero values as absent', () => {
    assert.ok(semanticEqual({ a: [], b: '', c: false, d: null }, {}));
    assert.ok(semanticEqual({ a: { x: 1 } }, { a: { x: 1, y: [] } }));
    assert.ok(!semanticEqual({ a: 0 }, {}));
    assert.ok(!semanticEqual([1, 2], [2, 1]));
  });
});

describe('IPs and ports', () => {
  it('checks IP syntax and special ranges', () => {
    assert.deepEqual(validateIP('x', '10.0.0.1'), []);
    assert.equal(validateIP('x', '10.0.0.256')[0]?.detail, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)');
    assert.equal(validateNonSpecialIP('x', '127.0.0.1')[0]?.detail, 'may not be in the loopback range (127.0.0.0/8, ::1/128)');
    assert.equal(validateNonSpecialIP('x', '::1')[0]?.detail, 'may not be in the loopback range (127.0.0.0/8, ::1/128)');
    assert.equal(validateNonSpecialIP('x', 'fe80::1')[0]?.detail, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)');
    assert.deepEqual(validateNonSpecialIP('x', '2001:db8::1'), []);
    assert.ok(isCIDR('10.0.0.0/24') && isCIDR('fd00::/64') && !isCIDR('10.0.0.0/33') && !isCIDR('10.0.0.0'));
  });
  it('checks port names as IANA service names', () => {
    assert.deepEqual(isValidPortName('http'), []);
    assert.deepEqual(isValidPortName('8080'), ['must contain at least one letter (a-z)']);
    assert.deepEqual(isValidPortName('a--b'), ['must not contain consecutive hyphens']);
  });
});
