import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { effectivePolicy, parseResolvConf, podDNSConfig } from './dns.js';
import type { Pod } from './types.js';

const host = parseResolvConf('# comment\nnameserver 192.0.2.53\nsearch example.com corp.example.com\noptions timeout:2 edns0\n');
const pod = (spec: Partial<Pod['spec']> = {}): Pod => ({ metadata: { name: 'p', namespace: 'team' }, spec: { containers: [], ...spec } });

describe('pod DNS', () => {
  it('parses resolv.conf', () => {
    assert.deepEqual(host, { servers: ['192.0.2.53'], searches: ['example.com', 'corp.example.com'], options: ['timeout:2', 'edns0'] });
  });
  it('ClusterFirst: cluster DNS, the namespace search list then the host searches, ndots:5', () => {
    assert.deepEqual(podDNSConfig(pod(), ['10.0.0.10'], 'cluster.local', host), {
      servers: ['10.0.0.10'],
      searches: ['team.svc.cluster.local', 'svc.cluster.local', 'cluster.local', 'example.com', 'corp.example.com'],
      options: ['ndots:5'],
    });
  });
  it('ClusterFirst without --cluster-dns falls back to Default', () => {
    assert.deepEqual(effectivePolicy(pod(), []), { policy: 'Default', missingClusterDNS: true });
    assert.deepEqual(podDNSConfig(pod(), [], 'cluster.local', host).servers, ['192.0.2.53']);
  });
  it('host network uses the host unless ClusterFirstWithHostNet', () => {
    assert.deepEqual(podDNSConfig(pod({ hostNetwork: true }), ['10.0.0.10'], 'cluster.local', host).servers, ['192.0.2.53']);
    assert.deepEqual(podDNSConfig(pod({ hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' }), ['10.0.0.10'], 'cluster.local', host).servers, ['10.0.0.10']);
  });
  it('None takes dnsConfig only; dnsConfig merges over the others, options by name', () => {
    const dnsConfig = { nameservers: ['1.1.1.1'], searches: ['a.example'], options: [{ name: 'ndots', value: '2' }, { name: 'rotate' }] };
    assert.deepEqual(podDNSConfig(pod({ dnsPolicy: 'None', dnsConfig }), ['10.0.0.10'], 'cluster.local', host), { servers: ['1.1.1.1'], searches: ['a.example'], options: ['ndots:2', 'rotate'] });
    assert.deepEqual(podDNSConfig(pod({ dnsConfig }), ['10.0.0.10'], 'cluster.local', host).options, ['ndots:2', 'rotate']);
  });
});
