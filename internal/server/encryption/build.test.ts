import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ResourceTransformers } from '../../storage/value/resource-transformers.js';
import { loadEncryptionConfig } from './build.js';

const dir = mkdtempSync(join(tmpdir(), 'capstan-enc-build-'));
let n = 0;
function file(body: string): string {
  const p = join(dir, `config-${n++}.yaml`);
  writeFileSync(p, body);
  return p;
}
const header = 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n';
const k32 = Buffer.alloc(32, 7).toString('base64');
const deps = { log: () => undefined };

describe('loading --encryption-provider-config', () => {
  it('builds one transformer list per resource rule, resolved with kube wildcards', async () => {
    const built = await loadEncryptionConfig(
      file(`${header}resources:
- resources: [secrets]
  providers: [{aescbc: {keys: [{name: k1, secret: ${k32}}]}}, {identity: {}}]
- resources: ["*.apps"]
  providers: [{secretbox: {keys: [{name: k1, secret: ${k32}}]}}]
- resources: ["*.*"]
  providers: [{aesgcm: {keys: [{name: k1, secret: ${k32}}]}}]`),
      false,
      deps,
    );
    assert.equal(built.kmsUsed, false);
    assert.match(built.hash, /^k8s:enc:unstable:1:[0-9a-f]{64}$/);
    const rt = new ResourceTransformers(built.rules);
    const prefixOf = (group: string, resource: string): string =>
      (rt.slotFor({ group, resource }).current?.toStorage(Buffer.from('x'), '/k') ?? Buffer.from('none')).subarray(0, 22).toString('latin1');
    assert.ok(prefixOf('', 'secrets').startsWith('k8s:enc:aescbc:v1:k1:'));
    assert.ok(prefixOf('apps', 'deployments').startsWith('k8s:enc:secretbox:v1:k'));
    assert.ok(prefixOf('', 'configmaps').startsWith('k8s:enc:aesgcm:v1:k1:'));
    assert.ok(prefixOf('batch', 'jobs').startsWith('k8s:enc:aesgcm:v1:k1:'));
    // events.k8s.io events are stored as core events (kube's config names them "events").
    assert.equal(rt.slotFor({ group: 'events.k8s.io', resource: 'events' }), rt.slotFor({ group: '', resource: 'events' }));
  });

  it('leaves resources no rule names without a transformer', async () => {
    const built = await loadEncryptionConfig(file(`${header}resources:\n- resources: [secrets]\n  providers: [{identity: {}}]`), false, deps);
    assert.equal(new ResourceTransformers(built.rules).slotFor({ group: '', resource: 'configmaps' }).current, undefined);
  });

  it('refuses masked rules, KMS v1 and invalid files with kube messages', async () => {
    await assert.rejects(
      loadEncryptionConfig(file(`${header}resources:\n- resources: ["*.apps"]\n  providers: [{identity: {}}]\n- resources: [deployments.apps]\n  providers: [{identity: {}}]`), false, deps),
      { message: 'error while building transformers: resource "deployments.apps" is masked by earlier rule "*.apps"' },
    );
    await assert.rejects(
      loadEncryptionConfig(file(`${header}resources:\n- resources: ["*.*"]\n  providers: [{identity: {}}]\n- resources: [secrets]\n  providers: [{identity: {}}]`), false, deps),
      { message: 'error while building transformers: resource "secrets" is masked by earlier rule "*.*"' },
    );
    await assert.rejects(loadEncryptionConfig(file(`${header}resources:\n- resources: [secrets]\n  providers: [{kms: {name: old, endpoint: "unix:///tmp/x.sock"}}]`), false, deps), {
      message:
        'error while building transformers: KMSv1 is deprecated and will only receive security updates going forward. Use KMSv2 instead.  Set --feature-gates=KMSv1=true to use the deprecated KMSv1 feature.',
    });
    await assert.rejects(loadEncryptionConfig(file(`${header}resources:\n- resources: [secrets]\n  providers: [{kms: {name: old, endpoint: "unix:///tmp/x.sock"}}]`), false, { ...deps, kmsV1: true }), {
      message:
        'error while building transformers: KMSv1 is enabled by --feature-gates=KMSv1=true, but Capstan does not implement the KMS v1 plugin protocol (k8s.io/kms v1beta1): use a KMS v2 provider (apiVersion: v2)',
    });
    await assert.rejects(loadEncryptionConfig(file(`${header}resources:\n- resources: [secrets]\n  providers: [{aescbc: {keys: [{name: k, secret: "Zm9v"}]}}]`), false, deps), {
      message: 'error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 3, expected one of [16 24 32]',
    });
    await assert.rejects(loadEncryptionConfig(join(dir, 'missing.yaml'), false, deps), {
      message: `error while parsing file: error while loading file: error reading encryption provider configuration file ${JSON.stringify(join(dir, 'missing.yaml'))}: open ${join(dir, 'missing.yaml')}: no such file or directory`,
    });
    const empty = file('');
    await assert.rejects(loadEncryptionConfig(empty, false, deps), { message: `error while parsing file: error while loading file: encryption provider configuration file ${JSON.stringify(empty)} is empty` });
    const typo = file(`${header}resource: []`);
    await assert.rejects(loadEncryptionConfig(typo, false, deps), {
      message: `error while parsing file: error decoding encryption provider configuration file ${JSON.stringify(typo)}: strict decoding error: unknown field "resource"`,
    });
  });
});
