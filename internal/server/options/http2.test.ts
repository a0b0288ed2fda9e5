import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';
import { listenSupportsReusePort } from './http2.js';

const run = (flags: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...flags], 'test');

function options(flags: string[]) {
  const r = run(flags);
  assert.equal(r.kind, 'run', r.kind === 'exit' ? r.stderr : '');
  return r.kind === 'run' ? r.options.http2 : undefined;
}

function refusal(flags: string[]): string {
  const r = run(flags);
  assert.equal(r.kind, 'exit');
  return r.kind === 'exit' ? (r.stderr ?? '') : '';
}

describe('HTTP/2 flags', () => {
  it("takes kube-apiserver's defaults", () => {
    assert.deepEqual(options([]), { maxStreamsPerConnection: 1000, goawayChance: 0, maxConnectionBytesPerSec: 0, permitAddressSharing: false, permitPortSharing: false });
  });

  it('reads every flag', () => {
    assert.deepEqual(
      options(['--http2-max-streams-per-connection=0', '--goaway-chance=.001', '--max-connection-bytes-per-sec=4096', '--permit-address-sharing']),
      { maxStreamsPerConnection: 0, goawayChance: 0.001, maxConnectionBytesPerSec: 4096, permitAddressSharing: true, permitPortSharing: false },
    );
  });

  it("refuses a goaway chance outside 0..0.02 with kube's message", () => {
    assert.match(refusal(['--goaway-chance=0.03']), /--goaway-chance can not be less than 0 or greater than 0\.02/);
    assert.match(refusal(['--goaway-chance=-0.01']), /--goaway-chance can not be less than 0 or greater than 0\.02/);
    assert.match(refusal(['--goaway-chance=often']), /invalid argument "often" for "--goaway-chance" flag: strconv\.ParseFloat: parsing "often": invalid syntax/);
    assert.match(refusal(['--http2-max-streams-per-connection=many']), /strconv\.ParseInt/);
  });

  it('refuses --permit-port-sharing where Node cannot set SO_REUSEPORT', () => {
    assert.equal(listenSupportsReusePort('20.20.2'), false);
    assert.equal(listenSupportsReusePort('22.11.0'), false);
    assert.equal(listenSupportsReusePort('22.12.0'), true);
    assert.equal(listenSupportsReusePort('23.1.0'), true);
    assert.equal(listenSupportsReusePort('24.0.0'), true);
    if (listenSupportsReusePort()) assert.equal(options(['--permit-port-sharing'])?.permitPortSharing, true);
    else assert.match(refusal(['--permit-port-sharing']), /--permit-port-sharing: SO_REUSEPORT needs Node\.js 22\.12 or later/);
    assert.equal(options(['--permit-port-sharing=false'])?.permitPortSharing, false);
  });
});
