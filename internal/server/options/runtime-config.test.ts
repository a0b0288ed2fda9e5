import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';

const run = (...args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'Kubernetes v1.33.0+capstan');

describe('--runtime-config flag', () => {
  it('is merged over the defaults, occurrences adding up', () => {
    const r = run('--runtime-config=batch/v1=false', '--runtime-config', 'api/alpha=true');
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.equal(r.options.apiEnablement?.versionEnabled('batch', 'v1'), false);
    assert.equal(r.options.apiEnablement?.versionEnabled('storagemigration.k8s.io', 'v1alpha1'), true);
  });

  it('stops the start with kube message', () => {
    const r = run('--runtime-config=nope/v1=true');
    assert.deepEqual(r, { kind: 'exit', code: 1, stderr: 'Error: unknown api groups nope\n' });
  });

  it('sees --enable-priority-and-fairness', () => {
    assert.equal(run('--runtime-config=api/ga=false,v1=true', '--enable-priority-and-fairness=false').kind, 'run');
    const r = run('--runtime-config=flowcontrol.apiserver.k8s.io/v1=false');
    assert.equal(r.kind === 'exit' && r.stderr, 'Error: --runtime-config=flowcontrol.apiserver.k8s.io/v1=false conflicts with --enable-priority-and-fairness=true\n');
  });
});
