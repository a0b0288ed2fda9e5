/**
 * --encryption-provider-config-automatic-reload: a changed file takes effect without a restart
 * (new writes use its first provider, values of providers it still lists keep reading); a file
 * that does not load, or whose KMS plugin is not there, changes nothing and is counted as a
 * failed reload in apiserver_encryption_config_controller_automatic_reloads_total; the health
 * endpoints carry kube's kms-providers check and the reload post-start hook.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { etcdctlGet } from '../support/etcdctl.js';
import { useServer } from '../support/server.js';

const dir = mkdtempSync(join(tmpdir(), 'capstan-reload-'));
const configPath = join(dir, 'encryption.yaml');
const key1 = Buffer.alloc(32, 1).toString('base64');
const key2 = Buffer.alloc(32, 2).toString('base64');
function writeConfig(providers: string): void {
  writeFileSync(configPath, `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [secrets]\n  providers:\n${providers}`);
}
writeConfig(`  - aescbc: {keys: [{name: key1, secret: ${key1}}]}\n`);

async function eventually(what: string, f: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await f())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('encryption at rest: automatic reload', () => {
  const fx = useServer({
    encryption: { providerConfigFile: configPath, automaticReload: true, tuning: { reloadPollIntervalMs: 200, minHealthWaitMs: 500 } },
  });
  let n = 0;
  const createAndPrefix = async (): Promise<string> => {
    const name = `s-${n++}`;
    const res = await fx.request('POST', '/api/v1/namespaces/default/secrets', { body: { metadata: { name }, data: { v: Buffer.from('hunter2').toString('base64') } } });
    assert.equal(res.status, 201, res.text);
    return (await etcdctlGet(fx.etcd.endpoint, `/registry/secrets/default/${name}`)).subarray(0, 23).toString('latin1');
  };
  const reloads = async (status: string): Promise<number> => {
    const text = (await fx.request('GET', '/metrics')).text;
    const m = new RegExp(`^apiserver_encryption_config_controller_automatic_reloads_total\\{status="${status}",apiserver_id_hash="sha256:[0-9a-f]{64}"\\} (\\d+)$`, 'm').exec(text);
    return m ? Number(m[1]) : 0;
  };

  it('serves kube\'s health checks and the configuration hash', async () => {
    const res = await fx.request('GET', '/healthz?verbose');
    assert.equal(res.status, 200);
    assert.match(res.text, /\[\+\]kms-providers ok/);
    assert.match(res.text, /\[\+\]poststarthook\/start-encryption-provider-config-automatic-reload ok/);
    assert.equal((await fx.request('GET', '/readyz/kms-providers')).text, 'ok');
    assert.match((await fx.request('GET', '/metrics')).text, /^apiserver_encryption_config_controller_last_config_info\{apiserver_id_hash="sha256:[0-9a-f]{64}",hash="k8s:enc:unstable:1:[0-9a-f]{64}"\} 1$/m);
  });

  it('applies a changed file without a restart; old values keep reading', async () => {
    assert.equal(await createAndPrefix(), 'k8s:enc:aescbc:v1:key1:');
    writeConfig(`  - aesgcm: {keys: [{name: key2, secret: ${key2}}]}\n  - aescbc: {keys: [{name: key1, secret: ${key1}}]}\n`);
    await eventually('a successful reload', async () => (await reloads('success')) >= 1);
    assert.equal(await createAndPrefix(), 'k8s:enc:aesgcm:v1:key2:');
    const old = await fx.request('GET', '/api/v1/namespaces/default/secrets/s-0');
    assert.equal(old.status, 200, old.text);
  });

  it('keeps the configuration in effect when the new file is invalid, and counts the failure', async () => {
    const before = await reloads('failure');
    writeConfig(`  - aesgcm: {keys: [{name: key3, secret: "not base64"}]}\n`);
    await eventually('a failed reload', async () => (await reloads('failure')) > before);
    assert.equal(await createAndPrefix(), 'k8s:enc:aesgcm:v1:key2:');
    assert.equal((await fx.request('GET', '/healthz')).status, 200);
  });

  it('keeps the configuration in effect when the new file\'s KMS plugin is not healthy', async () => {
    const before = await reloads('failure');
    writeConfig(`  - kms: {apiVersion: v2, name: absent, endpoint: "unix://${join(dir, 'nobody.sock')}", timeout: 1s}\n  - aesgcm: {keys: [{name: key2, secret: ${key2}}]}\n`);
    await eventually('a failed reload', async () => (await reloads('failure')) > before, 15_000);
    assert.equal(await createAndPrefix(), 'k8s:enc:aesgcm:v1:key2:');
    assert.equal((await fx.request('GET', '/healthz/kms-providers')).text, 'ok');
  });
});
