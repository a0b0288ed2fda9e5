import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadAuthenticationResolver } from './authentication.js';

describe('webhook admission kubeconfig', () => {
  it('finds users by host: exact, *. suffix, without :443, then *', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wh-auth-'));
    const file = join(dir, 'kubeconfig.yaml');
    await writeFile(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        'users:',
        '- name: hook.ns.svc',
        '  user: {token: exact}',
        '- name: "*.example.com"',
        '  user: {token: star}',
        '- name: "*"',
        '  user: {token: default}',
        '- name: "h.test:8443"',
        '  user: {token: port}',
      ].join('\n'),
    );
    const r = await loadAuthenticationResolver({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: file });
    assert.equal(r.forService('hook', 'ns', 443).token, 'exact');
    assert.equal(r.forService('hook', 'ns', 8443).token, 'default');
    assert.equal(r.forHost('a.b.example.com').token, 'star');
    assert.equal(r.forHost('a.example.com:443').token, 'star');
    assert.equal(r.forHost('h.test:8443').token, 'port');
    assert.equal(r.forHost('other').token, 'default');
  });

  it('refuses a relative kubeConfigFile and other kinds with kube\'s messages', async () => {
    await assert.rejects(loadAuthenticationResolver({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: 'rel.yaml' }), {
      message: 'kubeConfigFile: Invalid value: "rel.yaml": must be an absolute file path',
    });
    await assert.rejects(loadAuthenticationResolver({ apiVersion: 'v1', kind: 'Other' }), /unexpected type/);
    assert.deepEqual((await loadAuthenticationResolver(undefined)).forHost('x'), {});
  });
});
