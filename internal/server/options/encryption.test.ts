import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';

const run = (args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'test');

describe('encryption flags', () => {
  it('--encryption-provider-config and --encryption-provider-config-automatic-reload', () => {
    const r = run(['--encryption-provider-config=/etc/kubernetes/enc.yaml', '--encryption-provider-config-automatic-reload=true']);
    assert.equal(r.kind, 'run');
    if (r.kind === 'run') assert.deepEqual(r.options.encryption, { providerConfigFile: '/etc/kubernetes/enc.yaml', automaticReload: true });
    const off = run([]);
    assert.deepEqual(off.kind === 'run' && off.options.encryption, { automaticReload: false });
  });

  it('refuses automatic reload without a file, and non-bool values', () => {
    const r = run(['--encryption-provider-config-automatic-reload']);
    assert.equal(r.kind, 'exit');
    if (r.kind === 'exit') assert.equal(r.stderr, 'Error: --encryption-provider-config-automatic-reload must be set with --encryption-provider-config\n');
    const bad = run(['--encryption-provider-config=/x', '--encryption-provider-config-automatic-reload=maybe']);
    assert.equal(bad.kind, 'exit');
    if (bad.kind === 'exit') assert.match(bad.stderr ?? '', /strconv.ParseBool: parsing "maybe": invalid syntax/);
  });
});
