import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalIP, parseServiceCIDR } from './ip-allocator.js';

describe('service CIDRs', () => {
  it('excludes the network address, and for IPv4 the broadcast address', () => {
    const v4 = parseServiceCIDR('10.0.0.0/24');
    assert.equal(v4.family, 4);
    assert.equal(v4.last - v4.first + 1n, 254n);
    const v6 = parseServiceCIDR('fd00::/120');
    assert.equal(v6.last - v6.first + 1n, 255n);
    assert.equal(parseServiceCIDR('10.0.0.7/24').first, parseServiceCIDR('10.0.0.0/24').first, 'host bits are masked');
  });
  it('refuses malformed, huge and tiny ranges', () => {
    assert.throws(() => parseServiceCIDR('10.0.0.0'), /invalid CIDR/);
    assert.throws(() => parseServiceCIDR('nope/8'), /invalid CIDR/);
    assert.throws(() => parseServiceCIDR('10.0.0.0/4'), /too large/);
    assert.throws(() => parseServiceCIDR('10.0.0.0/31'), /too small/);
  });
  it('canonical IP text as Go prints it', () => {
    assert.equal(canonicalIP('010.0.0.1'), undefined);
    assert.equal(canonicalIP('10.0.0.1'), '10.0.0.1');
    assert.equal(canonicalIP('FD00:0:0:0:0:0:0:1'), 'fd00::1');
    assert.equal(canonicalIP('not-an-ip'), undefined);
  });
});
