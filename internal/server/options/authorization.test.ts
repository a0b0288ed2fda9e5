import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';

const run = (...args: string[]) => parseFlags(['--etcd-servers=http://e:1', ...args], 'test');
const error = (...args: string[]): string => {
  const r = run(...args);
  assert.equal(r.kind, 'exit', `expected ${args.join(' ')} to be refused`);
  return r.kind === 'exit' ? (r.stderr ?? '').trim() : '';
};

describe('authorization flags', () => {
  it("kube's defaults: AlwaysAllow, webhook v1beta1, 5m0s and 30s cache TTLs", () => {
    const r = run();
    assert.equal(r.kind, 'run');
    if (r.kind === 'run') {
      assert.deepEqual(r.options.authorization, { modes: ['AlwaysAllow'], webhookVersion: 'v1beta1', webhookCacheAuthorizedTTLMs: 300_000, webhookCacheUnauthorizedTTLMs: 30_000 });
    }
  });
  it('reads the ABAC and webhook flags', () => {
    const r = run('--authorization-mode=Node,ABAC,Webhook,RBAC', '--authorization-policy-file=/p', '--authorization-webhook-config-file', '/k', '--authorization-webhook-version=v1', '--authorization-webhook-cache-authorized-ttl=1m', '--authorization-webhook-cache-unauthorized-ttl=0');
    assert.equal(r.kind, 'run');
    if (r.kind === 'run') {
      assert.deepEqual(r.options.authorization, { modes: ['Node', 'ABAC', 'Webhook', 'RBAC'], policyFile: '/p', webhookConfigFile: '/k', webhookVersion: 'v1', webhookCacheAuthorizedTTLMs: 60_000, webhookCacheUnauthorizedTTLMs: 0 });
    }
  });
  it("refuses what kube refuses, with kube's messages", () => {
    assert.equal(error('--authorization-mode=ABAC'), "Error: authorization-mode ABAC's authorization policy file not passed");
    assert.equal(error('--authorization-mode=Webhook'), "Error: authorization-mode Webhook's authorization config file not passed");
    assert.equal(error('--authorization-policy-file=/p'), 'Error: cannot specify --authorization-policy-file without mode ABAC');
    assert.equal(error('--authorization-mode=RBAC', '--authorization-webhook-config-file=/k'), 'Error: cannot specify --authorization-webhook-config-file without mode Webhook');
    assert.equal(error('--authorization-mode=RBAC,Node,RBAC'), 'Error: authorization-mode ["RBAC" "Node" "RBAC"] has mode specified more than once');
    assert.equal(error('--authorization-mode=Magic'), 'Error: authorization-mode "Magic" is not a valid mode');
    assert.equal(error('--authorization-mode='), 'Error: at least one authorization-mode must be passed');
    assert.equal(
      error('--authorization-mode=Magic,ABAC'),
      'Error: [authorization-mode "Magic" is not a valid mode, authorization-mode ABAC\'s authorization policy file not passed]',
      'several problems are reported together',
    );
    assert.equal(error('--authorization-mode=Webhook', '--authorization-webhook-config-file=/k', '--authorization-webhook-version=v2'), 'Error: unsupported webhook authorizer version "v2", supported versions are "v1", "v1beta1"');
    assert.match(error('--authorization-webhook-cache-authorized-ttl=soon'), /invalid argument "soon" for "--authorization-webhook-cache-authorized-ttl" flag/);
    assert.equal(error('--authorization-webhook-cache-unauthorized-ttl=-1s'), 'Error: --authorization-webhook-cache-unauthorized-ttl -1s must not be negative');
  });
});
