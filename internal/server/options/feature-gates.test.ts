import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';

const base = ['--etcd-servers=http://127.0.0.1:2379'];

describe('--feature-gates', () => {
  it('is absent by default: the server reads kube 1.33 defaults', () => {
    const r = parseFlags(base, 'v');
    assert.equal(r.kind, 'run');
    assert.equal(r.kind === 'run' ? r.options.featureGates : 'x', undefined);
  });

  it('merges every occurrence, later values winning', () => {
    const r = parseFlags([...base, '--feature-gates', 'WatchList=true,APIResponseCompression=false', '--feature-gates=kube:WatchList=false'], 'v');
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.equal(r.options.featureGates?.enabled('WatchList'), false);
    assert.equal(r.options.featureGates?.enabled('APIResponseCompression'), false);
  });

  it('refuses API server features Capstan cannot honour when named, but not through AllAlpha/AllBeta', () => {
    assert.deepEqual(parseFlags([...base, '--feature-gates=kube:MutatingAdmissionPolicy=true'], 'v'), {
      kind: 'exit',
      code: 1,
      stderr: 'Error: feature gate MutatingAdmissionPolicy=true is not supported by Capstan: the CEL mutations of MutatingAdmissionPolicies are not implemented\n',
    });
    const off = parseFlags([...base, '--feature-gates=AuthorizeWithSelectors=false'], 'v');
    assert.equal(off.kind, 'exit');
    // The supported value, a later value that undoes it, and AllAlpha's expansion all start.
    for (const v of ['AuthorizeWithSelectors=true', 'MutatingAdmissionPolicy=true,MutatingAdmissionPolicy=false', 'AllAlpha=true']) {
      assert.equal(parseFlags([...base, `--feature-gates=${v}`], 'v').kind, 'run', v);
    }
  });

  it('refuses gates kube 1.33 does not know (removed after GA) and locked gates with kube messages', () => {
    assert.deepEqual(parseFlags([...base, '--feature-gates=RemainingItemCount=false'], 'v'), { kind: 'exit', code: 1, stderr: 'Error: unrecognized feature gate: RemainingItemCount\n' });
    assert.deepEqual(parseFlags([...base, '--feature-gates=APIListChunking=true'], 'v'), { kind: 'exit', code: 1, stderr: 'Error: unrecognized feature gate: APIListChunking\n' });
    assert.deepEqual(parseFlags([...base, '--feature-gates=CustomResourceFieldSelectors=false'], 'v'), {
      kind: 'exit',
      code: 1,
      stderr: 'Error: cannot set feature gate CustomResourceFieldSelectors to false, feature is locked to true\n',
    });
  });
});
