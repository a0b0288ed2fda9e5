import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiServerServiceIP, canonicalIP, parseCIDR, parseServiceClusterIPRanges, rangeOffset } from './service-cidr.js';

describe('service CIDRs', () => {
  it('excludes the network address, and for IPv4 the broadcast address', () => {
    const v4 = parseCIDR('10.0.0.0/24');
    assert.ok(v4);
    assert.equal(v4.family, 4);
    assert.equal(v4.last - v4.first + 1n, 254n);
    const v6 = parseCIDR('fd00::/120');
    assert.equal((v6?.last ?? 0n) - (v6?.first ?? 0n) + 1n, 255n);
    assert.equal(parseCIDR('10.0.0.7/24')?.cidr, '10.0.0.0/24', 'host bits are masked');
    assert.equal(parseCIDR('10.0.0.0'), undefined);
    assert.equal(parseCIDR('10.0.0.0/33'), undefined);
  });

  it('reads --service-cluster-ip-range with kube 1.33 messages', () => {
    assert.deepEqual(parseServiceClusterIPRanges('10.96.0.0/16,fd00::/112').map((c) => c.cidr), ['10.96.0.0/16', 'fd00::/112']);
    const refuses = (value: string, message: string): void => assert.throws(() => parseServiceClusterIPRanges(value), { message });
    refuses('10.0.0.0/24,fd00::/112,10.1.0.0/24', '--service-cluster-ip-range must not contain more than two entries');
    refuses('nope', 'service-cluster-ip-range[0] is not a valid cidr');
    refuses('10.0.0.0/24,nope', 'service-cluster-ip-range[1] is not an ip net');
    refuses('10.0.0.0/24,10.1.0.0/24', '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family');
    refuses('10.0.0.0/30', 'error determining service IP ranges for primary service cidr: the service cluster IP range must be at least 8 IP addresses');
    refuses('10.0.0.0/8', 'specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12');
    refuses('10.0.0.0/24,fd00::/64', 'specified --service-cluster-ip-range[1] is too large; for 128-bit addresses, the mask must be >= 108');
    assert.equal(apiServerServiceIP(parseServiceClusterIPRanges('fd00:10::/108,10.0.0.0/24')), 'fd00:10::1');
  });

  it('keeps kube\'s lower band for named addresses', () => {
    assert.equal(rangeOffset(parseCIDR('10.0.0.0/28') as never), 0n);
    assert.equal(rangeOffset(parseCIDR('10.0.0.0/24') as never), 16n);
    assert.equal(rangeOffset(parseCIDR('10.0.0.0/16') as never), 256n);
  });

  it('canonical IP text as Go prints it', () => {
    assert.equal(canonicalIP('010.0.0.1'), undefined);
    assert.equal(canonicalIP('10.0.0.1'), '10.0.0.1');
    assert.equal(canonicalIP('FD00:0:0:0:0:0:0:1'), 'fd00::1');
    assert.equal(canonicalIP('not-an-ip'), undefined);
  });
});
