/**
 * End to end: kubectl creates a quota, describes and lists its usage as the quota controller and
 * admission recorded it, and reports the refusal of a pod past it with kube's words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubectl, type KubectlResult } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

const fx = useServer();
const ns = 'quota-e2e';

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

describe('kubectl and ResourceQuota', () => {
  it('create quota, describe quota, and a refused run', async () => {
    ok(await kubectl(fx.kubeconfigPath, ['create', 'namespace', ns]), 'create namespace');
    ok(await kubectl(fx.kubeconfigPath, ['-n', ns, 'create', 'quota', 'q', '--hard=pods=1,count/configmaps=5']), 'create quota');
    let described = '';
    for (let i = 0; i < 100 && !/pods\s+0\s+1/.test(described); i++) {
      described = ok(await kubectl(fx.kubeconfigPath, ['-n', ns, 'describe', 'quota', 'q']), 'describe quota');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(described, /Resource\s+Used\s+Hard/);
    assert.match(described, /pods\s+0\s+1/);
    ok(await kubectl(fx.kubeconfigPath, ['-n', ns, 'run', 'a', '--image=nginx']), 'run a');
    const table = ok(await kubectl(fx.kubeconfigPath, ['-n', ns, 'get', 'quota']), 'get quota');
    assert.match(table, /^NAME\s+AGE\s+REQUEST\s+LIMIT\n/);
    assert.match(table, /\nq\s+\d+s\s+count\/configmaps: \d\/5, pods: 1\/1\s*\n/);
    const refused = await kubectl(fx.kubeconfigPath, ['-n', ns, 'run', 'b', '--image=nginx']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Error from server \(Forbidden\): pods "b" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1/);
  });
});
