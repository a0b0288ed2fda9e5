import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';

const run = (...args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'test');
const disabled = (r: ReturnType<typeof run>) => [...(r.kind === 'run' ? (r.options.controllers?.disabled ?? []) : ['(exit)'])].sort();

describe('--controllers', () => {
  it("defaults to '*': every loop on", () => {
    assert.deepEqual(disabled(run()), []);
  });

  it('-name and -alias turn a loop off; a list without * turns off what it does not name', () => {
    assert.deepEqual(disabled(run('--controllers=*,-root-ca-cert-publisher')), ['root-ca-certificate-publisher-controller']);
    assert.deepEqual(disabled(run('--controllers=*,-serviceaccount-controller')), ['serviceaccount-controller']);
    assert.deepEqual(disabled(run('--controllers=*,-namespace,-clusterrole-aggregation')), ['clusterrole-aggregation-controller', 'namespace-controller']);
    const only = disabled(run('--controllers=serviceaccount'));
    assert.ok(only.includes('root-ca-certificate-publisher-controller'));
    assert.ok(!only.includes('serviceaccount-controller'));
  });

  it('unknown names are refused with kube-controller-manager message', () => {
    const r = run('--controllers=*,-nope');
    assert.equal(r.kind, 'exit');
    assert.match(r.kind === 'exit' ? (r.stderr ?? '') : '', /"nope" is not in the list of known controllers/);
  });
});
