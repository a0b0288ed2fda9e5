/**
 * KMS v2 encryption at rest against a real etcd and a test plugin on a unix socket: the stored
 * EncryptedObject decrypts by hand as kube builds it (seed from the plugin, HKDF, AES-GCM with the
 * etcd key); a key ID change in the plugin moves new writes to a new seed; a restarted server
 * asks the plugin for each data key; the plugin going away fails the kms-providers health
 * checks at once and writes once the seed's write lifetime ends, while the server stays up; the
 * plugin coming back heals both.
 */
import assert from 'node:assert/strict';
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import protobuf from 'protobufjs';
import { etcdctlGet } from '../support/etcdctl.js';
import { startKmsPlugin, type TestKmsPlugin } from '../support/kms-plugin.js';
import { useServer } from '../support/server.js';
import { openWatch } from '../support/watch.js';

const dir = mkdtempSync(join(tmpdir(), 'capstan-kms-'));
const socket = join(dir, 'kms.sock');
const configPath = join(dir, 'encryption.yaml');
writeFileSync(
  configPath,
  `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
- resources: [secrets]
  providers:
  - kms: {apiVersion: v2, name: testkms, endpoint: "unix://${socket}", timeout: 2s}
  - identity: {}
`,
);

const EncryptedObject = protobuf
  .parse(
    `syntax = "proto3"; package v2;
     message EncryptedObject { bytes encryptedData = 1; string keyID = 2; bytes encryptedDEKSource = 3; map<string, bytes> annotations = 4; int32 encryptedDEKSourceType = 5; }`,
  )
  .root.lookupType('v2.EncryptedObject');
const prefix = Buffer.from('k8s:enc:kms:v2:testkms:');

async function eventually(what: string, f: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await f())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('encryption at rest: KMS v2 plugin over gRPC', () => {
  let plugin: TestKmsPlugin;
  before(async () => {
    plugin = await startKmsPlugin(socket);
  });
  after(async () => {
    await plugin?.stop();
  });
  const fx = useServer({
    encryption: {
      providerConfigFile: configPath,
      automaticReload: false,
      // kube's timings shortened: Status every 200 ms, seeds writable 1.5 s after the last healthy Status.
      tuning: { kms: { healthyTtlMs: 0, unhealthyTtlMs: 0, pollIntervalMs: 200, unhealthyPollIntervalMs: 200, writeDEKMaxTtlMs: 1500 } },
    },
  });

  const create = (name: string): Promise<{ status: number; json(): any; text: string }> =>
    fx.request('POST', '/api/v1/namespaces/default/secrets', { body: { metadata: { name }, data: { password: Buffer.from(`hunter2-${name}`).toString('base64') } } });
  const read = async (name: string): Promise<string> => {
    const res = await fx.request('GET', `/api/v1/namespaces/default/secrets/${name}`);
    assert.equal(res.status, 200, res.text);
    return Buffer.from(res.json().data.password, 'base64').toString();
  };
  const storedObject = async (name: string): Promise<{ encryptedData: Buffer; keyID: string; encryptedDEKSource: Buffer; annotations: Record<string, Buffer>; encryptedDEKSourceType: number }> => {
    const raw = await etcdctlGet(fx.etcd.endpoint, `/registry/secrets/default/${name}`);
    assert.ok(raw.subarray(0, prefix.length).equals(prefix), raw.subarray(0, 30).toString('latin1'));
    return EncryptedObject.toObject(EncryptedObject.decode(raw.subarray(prefix.length))) as never;
  };

  it('stores kube\'s EncryptedObject; it decrypts by hand with the plugin\'s key, HKDF and the etcd key', async () => {
    assert.equal((await create('s1')).status, 201);
    const o = await storedObject('s1');
    assert.equal(o.keyID, 'key-1');
    assert.equal(o.encryptedDEKSourceType, 1);
    assert.equal(Buffer.from(o.annotations['kms.capstan.test'] as Buffer).toString(), 'test-plugin');
    const seed = plugin.open('key-1', Buffer.from(o.encryptedDEKSource));
    const data = Buffer.from(o.encryptedData);
    const key = createHmac('sha256', seed).update(Buffer.concat([data.subarray(0, 32), Buffer.of(1)])).digest();
    const d = createDecipheriv('aes-256-gcm', key, data.subarray(32, 44));
    d.setAAD(Buffer.from('/registry/secrets/default/s1'));
    d.setAuthTag(data.subarray(data.length - 16));
    const plain = Buffer.concat([d.update(data.subarray(44, data.length - 16)), d.final()]);
    assert.ok(plain.subarray(0, 4).equals(Buffer.from('k8s\0')), 'the Protobuf Secret');
    assert.ok(plain.includes(Buffer.from('hunter2-s1')));
    assert.equal(await read('s1'), 'hunter2-s1');
  });

  it('reads and watches a value another API server wrote with its own seed (the plugin decrypts it once)', async () => {
    const key = '/registry/secrets/default/s1';
    const o = await storedObject('s1');
    // Decrypt what this server wrote, re-encrypt it by hand under a seed this server never saw.
    const seed = plugin.open('key-1', Buffer.from(o.encryptedDEKSource));
    const data = Buffer.from(o.encryptedData);
    const k = createHmac('sha256', seed).update(Buffer.concat([data.subarray(0, 32), Buffer.of(1)])).digest();
    const d = createDecipheriv('aes-256-gcm', k, data.subarray(32, 44));
    d.setAAD(Buffer.from(key));
    d.setAuthTag(data.subarray(data.length - 16));
    const plain = Buffer.concat([d.update(data.subarray(44, data.length - 16)), d.final()]);
    const otherSeed = randomBytes(32);
    const info = randomBytes(32);
    const nonce = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', createHmac('sha256', otherSeed).update(Buffer.concat([info, Buffer.of(1)])).digest(), nonce);
    c.setAAD(Buffer.from(key));
    const encryptedData = Buffer.concat([info, nonce, c.update(plain), c.final(), c.getAuthTag()]);
    const msg = EncryptedObject.create({ encryptedData, keyID: 'key-1', encryptedDEKSource: plugin.seal('key-1', otherSeed), annotations: {}, encryptedDEKSourceType: 1 });
    const value = Buffer.concat([prefix, Buffer.from(EncryptedObject.encode(msg).finish())]);

    const start = await fx.request('GET', '/api/v1/namespaces/default/secrets/s1');
    const watch = await openWatch(fx, `/api/v1/namespaces/default/secrets?watch=1&fieldSelector=metadata.name%3Ds1&resourceVersion=${start.json().metadata.resourceVersion}`);
    const decrypts = plugin.calls.Decrypt;
    const client = new Etcd3({ hosts: fx.etcd.endpoint });
    try {
      await client.put(key).value(value);
    } finally {
      client.close();
    }
    const ev = await watch.next(10_000);
    watch.close();
    assert.equal(ev?.type, 'MODIFIED');
    assert.equal(Buffer.from(ev.object.data.password, 'base64').toString(), 'hunter2-s1');
    assert.equal(await read('s1'), 'hunter2-s1');
    assert.equal(plugin.calls.Decrypt, decrypts + 1);
  });

  it('a new key ID in the plugin moves new writes to a new seed; old Secrets still read, also after a restart', async () => {
    plugin.rotate('key-2');
    let n = 0;
    await eventually('a write under key-2', async () => {
      const name = `rot-${n++}`;
      assert.equal((await create(name)).status, 201);
      return (await storedObject(name)).keyID === 'key-2';
    });
    assert.equal(await read('s1'), 'hunter2-s1');
    const decrypts = plugin.calls.Decrypt;
    await fx.restart();
    assert.equal(await read('s1'), 'hunter2-s1');
    // A new server's DEK cache is empty: the plugin decrypts each seed in use (once, whoever reads first).
    assert.ok(plugin.calls.Decrypt > decrypts, 'an empty DEK cache asks the plugin');
    const after = plugin.calls.Decrypt;
    assert.equal(await read('s1'), 'hunter2-s1');
    assert.equal(plugin.calls.Decrypt, after, 'a cached data key does not');
  });

  it('the plugin going away fails kms-providers at once and writes after the seed expires; the server stays up', async () => {
    assert.equal((await fx.request('GET', '/healthz/kms-providers')).text, 'ok');
    await plugin.stop();
    await eventually('kms-providers to fail', async () => (await fx.request('GET', '/healthz/kms-providers')).status === 500);
    const one = await fx.request('GET', '/healthz/kms-providers');
    assert.match(one.text, /^internal server error: kms-provider-0: failed to perform status section of the healthz check for KMS Provider testkms, error: rpc error: code = Unavailable desc = /);
    const ready = await fx.request('GET', '/readyz?verbose');
    assert.equal(ready.status, 500);
    assert.match(ready.text, /\[-\]kms-providers failed: reason withheld/);
    // /livez has no KMS check (kube's addHealthChecksWithoutLivez): the server is not restarted for it.
    assert.equal((await fx.request('GET', '/livez')).status, 200);
    // Cached data keys still read.
    assert.equal(await read('s1'), 'hunter2-s1');
    await eventually(
      'writes to fail',
      async () => {
        const res = await create(`late-${Date.now()}`);
        if (res.status === 201) return false;
        assert.equal(res.status, 500, res.text);
        assert.equal(res.json().reason, 'InternalError');
        assert.match(res.json().message, /^Internal error occurred: encryptedDEKSource with keyID hash "sha256:[0-9a-f]{64}" expired at .*; last error from the KMS plugin: failed to perform status section/);
        return true;
      },
      10_000,
    );
    // Everything not encrypted goes on.
    assert.equal((await fx.request('GET', '/api/v1/namespaces/default/configmaps')).status, 200);
    assert.equal((await fx.request('GET', '/readyz/etcd')).status, 200);
  });

  it('the plugin coming back heals health and writes', async () => {
    await plugin.start();
    await eventually('kms-providers to heal', async () => (await fx.request('GET', '/healthz/kms-providers')).status === 200, 15_000);
    const res = await create('after-outage');
    assert.equal(res.status, 201, res.text);
    assert.equal(await read('after-outage'), 'hunter2-after-outage');
    assert.equal((await fx.request('GET', '/readyz')).status, 200);
  });
});
