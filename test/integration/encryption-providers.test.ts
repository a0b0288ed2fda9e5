/**
 * Encryption at rest against a real etcd, read back with the real etcdctl: each provider (aescbc,
 * aesgcm, secretbox, KMS v2 through a test plugin) writes its kube prefix and no plaintext; every
 * provider still listed keeps reading what it wrote as providers rotate (restarts with a new
 * first provider); a configuration without a value's provider or key answers that Secret with a
 * 500 Status (kube's words), lists of Secrets with "unable to transform key", and nothing else;
 * and `kubectl get secrets -A -o json | kubectl replace -f -` rewrites every Secret with the
 * first provider, unchanged objects included (stale values).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { etcdctlGet } from '../support/etcdctl.js';
import { startKmsPlugin, type TestKmsPlugin } from '../support/kms-plugin.js';
import { kubectl } from '../support/kubectl.js';
import { useServer } from '../support/server.js';
import { openWatch } from '../support/watch.js';

const dir = mkdtempSync(join(tmpdir(), 'capstan-enc-'));
const configPath = join(dir, 'encryption.yaml');
const key1 = Buffer.alloc(32, 1).toString('base64');
const otherKey = Buffer.alloc(32, 9).toString('base64');

const providers = {
  aescbc: `- aescbc: {keys: [{name: key1, secret: ${key1}}]}`,
  aesgcm: `- aesgcm: {keys: [{name: key1, secret: ${key1}}]}`,
  secretbox: `- secretbox: {keys: [{name: key1, secret: ${key1}}]}`,
  kms: (endpoint: string) => `- kms: {apiVersion: v2, name: testkms, endpoint: "${endpoint}", timeout: 3s}`,
  identity: '- identity: {}',
};

function writeConfig(...secretProviders: string[]): void {
  writeFileSync(configPath, `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [secrets]\n  providers:\n${secretProviders.map((p) => `  ${p}`).join('\n')}\n`);
}

describe('encryption at rest: providers, rotation, unreadable values', () => {
  let plugin: TestKmsPlugin;
  before(async () => {
    plugin = await startKmsPlugin(join(dir, 'kms.sock'));
  });
  after(async () => {
    await plugin?.stop();
  });
  const fx = useServer({}, () => {
    writeConfig(providers.aescbc, providers.identity);
    return [`--encryption-provider-config=${configPath}`];
  });

  const createSecret = async (name: string, value: string): Promise<void> => {
    const res = await fx.request('POST', '/api/v1/namespaces/default/secrets', {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name }, data: { password: Buffer.from(value).toString('base64') } },
    });
    assert.equal(res.status, 201, res.text);
  };
  const readSecret = async (name: string): Promise<string> => {
    const res = await fx.request('GET', `/api/v1/namespaces/default/secrets/${name}`);
    assert.equal(res.status, 200, res.text);
    return Buffer.from(res.json().data.password, 'base64').toString();
  };
  const stored = (name: string): Promise<Buffer> => etcdctlGet(fx.etcd.endpoint, `/registry/secrets/default/${name}`);

  it('aescbc writes "k8s:enc:aescbc:v1:key1:" and no plaintext; the Secret reads back', async () => {
    await createSecret('s-aescbc', 'hunter2-aescbc');
    const raw = await stored('s-aescbc');
    assert.ok(raw.subarray(0, 23).equals(Buffer.from('k8s:enc:aescbc:v1:key1:')), raw.subarray(0, 40).toString('latin1'));
    assert.equal(raw.includes(Buffer.from('hunter2')), false);
    assert.equal(raw.includes(Buffer.from('s-aescbc')), false);
    assert.equal(await readSecret('s-aescbc'), 'hunter2-aescbc');
    // Resources the configuration does not name are stored as before (Protobuf, "k8s\0").
    assert.equal((await fx.request('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'plain' }, data: { a: 'visible' } } })).status, 201);
    const cm = await etcdctlGet(fx.etcd.endpoint, '/registry/configmaps/default/plain');
    assert.ok(cm.subarray(0, 4).equals(Buffer.from('k8s\0')));
    assert.ok(cm.includes(Buffer.from('visible')));
  });

  it('aesgcm first: new Secrets get "k8s:enc:aesgcm:v1:key1:", aescbc ones still read', async () => {
    writeConfig(providers.aesgcm, providers.aescbc, providers.identity);
    await fx.restart();
    await createSecret('s-aesgcm', 'hunter2-aesgcm');
    const raw = await stored('s-aesgcm');
    assert.ok(raw.subarray(0, 23).equals(Buffer.from('k8s:enc:aesgcm:v1:key1:')));
    assert.equal(raw.includes(Buffer.from('hunter2')), false);
    assert.equal(await readSecret('s-aesgcm'), 'hunter2-aesgcm');
    assert.equal(await readSecret('s-aescbc'), 'hunter2-aescbc');
  });

  it('secretbox first: "k8s:enc:secretbox:v1:key1:"', async () => {
    writeConfig(providers.secretbox, providers.aesgcm, providers.aescbc, providers.identity);
    await fx.restart();
    await createSecret('s-secretbox', 'hunter2-secretbox');
    const raw = await stored('s-secretbox');
    assert.ok(raw.subarray(0, 26).equals(Buffer.from('k8s:enc:secretbox:v1:key1:')));
    assert.equal(raw.includes(Buffer.from('hunter2')), false);
    assert.equal(await readSecret('s-secretbox'), 'hunter2-secretbox');
  });

  it('kms v2 first: "k8s:enc:kms:v2:testkms:", every older Secret still reads, lists and watches decrypt', async () => {
    writeConfig(providers.kms(plugin.endpoint), providers.secretbox, providers.aesgcm, providers.aescbc, providers.identity);
    await fx.restart();
    const list0 = await fx.request('GET', '/api/v1/namespaces/default/secrets');
    assert.equal(list0.status, 200, list0.text);
    const watch = await openWatch(fx, `/api/v1/namespaces/default/secrets?watch=1&resourceVersion=${list0.json().metadata.resourceVersion}`);
    await createSecret('s-kms', 'hunter2-kms');
    const raw = await stored('s-kms');
    assert.ok(raw.subarray(0, 23).equals(Buffer.from('k8s:enc:kms:v2:testkms:')));
    assert.equal(raw.includes(Buffer.from('hunter2')), false);
    assert.ok(raw.includes(Buffer.from(plugin.keyID)), 'the key ID is stored beside the value');
    assert.equal(await readSecret('s-kms'), 'hunter2-kms');
    const ev = await watch.next(10_000);
    watch.close();
    assert.equal(ev?.type, 'ADDED');
    assert.equal(Buffer.from(ev.object.data.password, 'base64').toString(), 'hunter2-kms');
    for (const name of ['s-aescbc', 's-aesgcm', 's-secretbox']) assert.match(await readSecret(name), /^hunter2-/);
    const list = await fx.request('GET', '/api/v1/namespaces/default/secrets');
    assert.deepEqual(list.json().items.map((s: { metadata: { name: string } }) => s.metadata.name).sort(), ['s-aescbc', 's-aesgcm', 's-kms', 's-secretbox']);
    const health = await fx.request('GET', '/readyz?verbose');
    assert.equal(health.status, 200, health.text);
    assert.match(health.text, /\[\+\]kms-providers ok/);
    assert.equal((await fx.request('GET', '/healthz/kms-providers')).text, 'ok');
    // kube keeps the KMS check off /livez: a KMS outage must not get the server restarted.
    assert.equal((await fx.request('GET', '/livez/kms-providers')).status, 404);
  });

  it('without a value\'s provider or key: that Secret is a 500 Status, lists of Secrets fail naming the key, all else works', async () => {
    // aescbc now has only another key; aesgcm, secretbox and identity are gone.
    writeConfig(providers.kms(plugin.endpoint), `- aescbc: {keys: [{name: key2, secret: ${otherKey}}]}`);
    await fx.restart();
    const cbc = await fx.request('GET', '/api/v1/namespaces/default/secrets/s-aescbc');
    assert.equal(cbc.status, 500);
    assert.deepEqual(
      { kind: cbc.json().kind, status: cbc.json().status, reason: cbc.json().reason, code: cbc.json().code, message: cbc.json().message },
      { kind: 'Status', status: 'Failure', reason: 'InternalError', code: 500, message: 'Internal error occurred: no matching key was found for the provided AES transformer' },
    );
    const gcm = await fx.request('GET', '/api/v1/namespaces/default/secrets/s-aesgcm');
    assert.equal(gcm.status, 500);
    assert.equal(gcm.json().message, 'Internal error occurred: no matching prefix found');
    assert.equal(await readSecret('s-kms'), 'hunter2-kms');
    // As kubectl lists (limit=500): the page comes from etcd while the Secrets' watch cache cannot fill.
    const list = await fx.request('GET', '/api/v1/namespaces/default/secrets?limit=500');
    assert.equal(list.status, 500);
    assert.match(list.json().message, /^Internal error occurred: unable to transform key "\/registry\/secrets\/default\/s-aes(cbc|gcm)": no matching (key was found for the provided AES transformer|prefix found)$/);
    // Other resources, writes of new Secrets and the health checks are unaffected.
    assert.equal((await fx.request('GET', '/api/v1/namespaces/default/configmaps')).status, 200);
    await createSecret('s-new', 'hunter2-new');
    assert.equal(await readSecret('s-new'), 'hunter2-new');
    assert.equal((await fx.request('GET', '/readyz')).status, 200);
  });

  it('kubectl get secrets -A -o json | kubectl replace -f - rewrites every Secret with the first provider', async () => {
    writeConfig(providers.kms(plugin.endpoint), providers.secretbox, providers.aesgcm, providers.aescbc, providers.identity);
    await fx.restart();
    const got = await kubectl(fx.kubeconfigPath, ['get', 'secrets', '-A', '-o', 'json']);
    assert.equal(got.code, 0, got.stderr);
    const replaced = await kubectl(fx.kubeconfigPath, ['replace', '-f', '-'], { input: got.stdout });
    assert.equal(replaced.code, 0, replaced.stderr);
    for (const name of ['s-aescbc', 's-aesgcm', 's-secretbox', 's-kms', 's-new']) {
      const raw = await stored(name);
      assert.ok(raw.subarray(0, 23).equals(Buffer.from('k8s:enc:kms:v2:testkms:')), `${name}: ${raw.subarray(0, 24).toString('latin1')}`);
    }
    // Nothing but KMS is needed now.
    writeConfig(providers.kms(plugin.endpoint));
    await fx.restart();
    const list = await fx.request('GET', '/api/v1/namespaces/default/secrets');
    assert.equal(list.status, 200, list.text);
    assert.equal(list.json().items.length, 5);
    // A configuration that does not name secrets reads them as plaintext: kube's identity check refuses.
    writeFileSync(configPath, 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [configmaps]\n  providers: [{identity: {}}]\n');
    await fx.restart();
    const res = await fx.request('GET', '/api/v1/namespaces/default/secrets/s-kms');
    assert.equal(res.status, 500);
    assert.equal(res.json().message, 'Internal error occurred: identity transformer tried to read encrypted data');
  });
});
