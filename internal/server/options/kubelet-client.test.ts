import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';

function parse(flags: string[]) {
  return parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...flags], 'test');
}

describe('--kubelet-* flags', () => {
  it('takes kube 1.33 defaults', () => {
    const r = parse([]);
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.deepEqual(r.options.kubeletClient, { timeoutMs: 5000, preferredAddressTypes: ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'], port: 10250, readOnlyPort: 10255 });
  });
  it('reads every flag', () => {
    const r = parse(['--kubelet-client-certificate=/c', '--kubelet-client-key=/k', '--kubelet-certificate-authority=/ca', '--kubelet-timeout=30s', '--kubelet-preferred-address-types=InternalIP,Hostname', '--kubelet-port=11250', '--kubelet-read-only-port=0']);
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.deepEqual(r.options.kubeletClient, { clientCertificate: '/c', clientKey: '/k', certificateAuthority: '/ca', timeoutMs: 30_000, preferredAddressTypes: ['InternalIP', 'Hostname'], port: 11250, readOnlyPort: 0 });
  });
  it('refuses what cannot work', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--kubelet-client-certificate=/c'], /--kubelet-client-certificate and --kubelet-client-key must be given together/],
      [['--kubelet-preferred-address-types=InternalIP,Internal'], /unknown address type "Internal"/],
      [['--kubelet-timeout=soon'], /kubelet-timeout/],
      [['--kubelet-port=70000'], /--kubelet-port 70000 must be between 0 and 65535/],
    ];
    for (const [flags, message] of cases) {
      const r = parse(flags);
      assert.equal(r.kind, 'exit', flags.join(' '));
      if (r.kind === 'exit') assert.match(r.stderr ?? '', message);
    }
  });
});
