import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { normalizeIP, sourceIPs } from './source-ips.js';

function req(headers: Record<string, string>, remoteAddress?: string): IncomingMessage {
  return { headers, socket: { remoteAddress } } as unknown as IncomingMessage;
}

describe('audit source IPs (utilnet.SourceIPs)', () => {
  it('prints addresses as Go does', () => {
    assert.equal(normalizeIP('10.0.0.1'), '10.0.0.1');
    assert.equal(normalizeIP('010.001.0.1'), '10.1.0.1', 'ParseIPSloppy reads leading zeros as decimal');
    assert.equal(normalizeIP('::ffff:127.0.0.1'), '127.0.0.1');
    assert.equal(normalizeIP('2001:DB8:0:0:0:0:0:1'), '2001:db8::1');
    assert.equal(normalizeIP('256.0.0.1'), undefined);
    assert.equal(normalizeIP('not-an-ip'), undefined);
  });

  it('lists X-Forwarded-For, then X-Real-Ip if new, then the remote address if not last', () => {
    assert.deepEqual(sourceIPs(req({}, '::ffff:192.0.2.1')), ['192.0.2.1']);
    assert.deepEqual(sourceIPs(req({ 'x-forwarded-for': '203.0.113.5, bogus, 198.51.100.7' }, '192.0.2.1')), ['203.0.113.5', '198.51.100.7', '192.0.2.1']);
    assert.deepEqual(sourceIPs(req({ 'x-forwarded-for': '203.0.113.5', 'x-real-ip': '203.0.113.5' }, '192.0.2.1')), ['203.0.113.5', '192.0.2.1']);
    assert.deepEqual(sourceIPs(req({ 'x-real-ip': '203.0.113.9' }, '192.0.2.1')), ['203.0.113.9', '192.0.2.1']);
    assert.deepEqual(sourceIPs(req({ 'x-forwarded-for': '192.0.2.1' }, '192.0.2.1')), ['192.0.2.1'], 'the remote address is not repeated');
    assert.deepEqual(sourceIPs(req({}, undefined)), []);
  });
});
