import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../observability/logging.js';
import { createMetrics } from '../observability/metrics.js';
import { defaultAuthorizationOptions, type AuthorizationOptions } from '../server/options/authorization.js';
import { buildAuthorization } from './build.js';
import type { AuthorizationAttributes } from './interface.js';

const log = createLogger(0, true);
const deps = { storageOf: () => undefined, log };

function attrs(user: { name: string; groups: string[] }, verb = 'create'): AuthorizationAttributes {
  return { user, verb, isResourceRequest: true, path: '', namespace: 'ns', apiGroup: '', apiVersion: 'v1', resource: 'configmaps', subresource: '', name: '' };
}
const opts = (o: Partial<AuthorizationOptions>): AuthorizationOptions => ({ ...defaultAuthorizationOptions, ...o });

describe('buildAuthorization', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'authz-build-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('puts system:masters before every mode, as kube-apiserver does', async () => {
    const built = await buildAuthorization(opts({ modes: ['AlwaysDeny'] }), deps);
    assert.equal((await built.authorizer.authorize(attrs({ name: 'root', groups: ['system:masters'] }))).decision, 'Allow');
    assert.deepEqual(await built.authorizer.authorize(attrs({ name: 'joe', groups: ['system:authenticated'] })), { decision: 'NoOpinion', reason: 'Everything is forbidden.' });
    assert.deepEqual(await built.authorizer.rulesFor({ name: 'root', groups: ['system:masters'] }, 'ns'), { resourceRules: [], nonResourceRules: [], incomplete: false });
    built.stop();
  });

  it('ABAC: decides from the policy file in mode order, and counts decisions by type and name', async () => {
    const file = join(dir, 'policy.jsonl');
    await writeFile(file, `{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"joe","namespace":"*","resource":"configmaps","apiGroup":""}}\n`);
    const metrics = createMetrics();
    const built = await buildAuthorization(opts({ modes: ['ABAC', 'AlwaysDeny'], policyFile: file }), { ...deps, metrics });
    assert.equal((await built.authorizer.authorize(attrs({ name: 'joe', groups: [] }))).decision, 'Allow');
    assert.deepEqual(await built.authorizer.authorize(attrs({ name: 'ann', groups: [] })), { decision: 'NoOpinion', reason: 'No policy matched.\nEverything is forbidden.' });
    const text = await metrics.text();
    assert.match(text, /apiserver_authorization_decisions_total\{type="ABAC",name="abac",decision="allowed"\} 1/);
    assert.doesNotMatch(text, /decision="denied"/, 'NoOpinion is not a terminal decision');
    built.stop();
  });

  it('refuses to build from a bad policy file, naming the line, or without one', async () => {
    const file = join(dir, 'bad.jsonl');
    await writeFile(file, '# policies\n{"user":"joe","readonly":true}\n{"user": joe}\n');
    await assert.rejects(buildAuthorization(opts({ modes: ['ABAC'], policyFile: file }), deps), (err: Error) => err.message.startsWith(`error reading policy file ${file}, line 3: {"user": joe}: `));
    await assert.rejects(buildAuthorization(opts({ modes: ['ABAC'], policyFile: join(dir, 'missing') }), deps), { message: `open ${join(dir, 'missing')}: no such file or directory` });
    await assert.rejects(buildAuthorization(opts({ modes: ['ABAC'] }), deps), { message: "authorization-mode ABAC's authorization policy file not passed" });
    await assert.rejects(buildAuthorization(opts({ modes: ['Webhook'], webhookConfigFile: join(dir, 'missing') }), deps), /invalid webhook kubeconfig/);
  });
});
