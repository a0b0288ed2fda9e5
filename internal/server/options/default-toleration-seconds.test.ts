import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';

const parse = (args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'v');

describe('--default-*-toleration-seconds', () => {
  it('default to 300 and take integers', () => {
    const d = parse([]);
    assert.deepEqual(d.kind === 'run' && d.options.defaultTolerationSeconds, { notReadySeconds: 300, unreachableSeconds: 300 });
    const r = parse(['--default-not-ready-toleration-seconds=60', '--default-unreachable-toleration-seconds', '0']);
    assert.deepEqual(r.kind === 'run' && r.options.defaultTolerationSeconds, { notReadySeconds: 60, unreachableSeconds: 0 });
  });

  it("refuse what is not an integer with pflag's message", () => {
    const r = parse(['--default-not-ready-toleration-seconds=5m']);
    assert.notEqual(r.kind, 'run');
    assert.match(JSON.stringify(r), /invalid argument \\"5m\\" for \\"--default-not-ready-toleration-seconds\\" flag: strconv.ParseInt: parsing \\"5m\\": invalid syntax/);
  });
});
