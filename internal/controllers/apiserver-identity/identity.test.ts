import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { apiServerID, isLeaseExpired, microTime } from './identity.js';

describe('APIServerIdentity', () => {
  it('names the Lease as kube does: apiserver- and base32 of sha256(len-prefixed host, "kube-apiserver")[:16]', () => {
    // Computed independently (Python: hashlib, struct, base64.b32encode).
    assert.equal(apiServerID('myhost'), 'apiserver-eqwsatu4lrpqig5wtp5dvzxufm');
    assert.notEqual(apiServerID('myhost2'), apiServerID('myhost'));
    assert.match(apiServerID('x'), /^apiserver-[a-z2-7]{26}$/);
  });

  it('writes renewTime as a MicroTime', () => {
    assert.equal(microTime(Date.UTC(2026, 0, 2, 3, 4, 5, 678)), '2026-01-02T03:04:05.678000Z');
  });

  it('a Lease has lapsed past renewTime + leaseDurationSeconds, or without either', () => {
    const lease = (spec: Record<string, unknown>): KubeObject => ({ metadata: {}, spec });
    const now = Date.UTC(2026, 0, 1, 0, 0, 10);
    assert.equal(isLeaseExpired(lease({ renewTime: '2026-01-01T00:00:00.000000Z', leaseDurationSeconds: 11 }), now), false);
    assert.equal(isLeaseExpired(lease({ renewTime: '2026-01-01T00:00:00.000000Z', leaseDurationSeconds: 9 }), now), true);
    assert.equal(isLeaseExpired(lease({ leaseDurationSeconds: 3600 }), now), true);
    assert.equal(isLeaseExpired(lease({ renewTime: '2026-01-01T00:00:00.000000Z' }), now), true);
  });
});
