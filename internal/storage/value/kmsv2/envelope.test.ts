import assert from 'node:assert/strict';
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import protobuf from 'protobufjs';
import { PrefixTransformers } from '../prefix.js';
import { KmsV2EnvelopeTransformer } from './envelope.js';
import { KmsV2Probe } from './probe.js';
import type { KmsDecryptRequest, KmsEncryptResponse, KmsService, KmsStatus } from './service.js';
import { hkdfExpandSha256 } from './xnonce-gcm.js';

// kube's EncryptedObject, parsed independently of the hand-written codec under test.
const EncryptedObject = protobuf
  .parse(
    `syntax = "proto3"; package v2;
     message EncryptedObject { bytes encryptedData = 1; string keyID = 2; bytes encryptedDEKSource = 3; map<string, bytes> annotations = 4; EncryptedDEKSourceType encryptedDEKSourceType = 5; }
     enum EncryptedDEKSourceType { AES_GCM_KEY = 0; HKDF_SHA256_XNONCE_AES_GCM_SEED = 1; }`,
  )
  .root.lookupType('v2.EncryptedObject');

/** An in-memory KMS plugin: AES-GCM under a key per key ID. */
class FakeKms implements KmsService {
  keyID = 'key-1';
  healthz = 'ok';
  failing = false;
  readonly keys = new Map<string, Buffer>([['key-1', randomBytes(32)]]);
  decrypts = 0;
  encrypts = 0;
  rotate(id: string): void {
    this.keyID = id;
    this.keys.set(id, randomBytes(32));
  }
  seal(keyID: string, plaintext: Buffer): Buffer {
    const nonce = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.keys.get(keyID) as Buffer, nonce);
    return Buffer.concat([nonce, c.update(plaintext), c.final(), c.getAuthTag()]);
  }
  open(keyID: string, ct: Buffer): Buffer {
    const d = createDecipheriv('aes-256-gcm', this.keys.get(keyID) as Buffer, ct.subarray(0, 12));
    d.setAuthTag(ct.subarray(ct.length - 16));
    return Buffer.concat([d.update(ct.subarray(12, ct.length - 16)), d.final()]);
  }
  async status(): Promise<KmsStatus> {
    if (this.failing) throw new Error('rpc error: code = Unavailable desc = connection refused');
    return { version: 'v2', healthz: this.healthz, keyID: this.keyID };
  }
  async encrypt(_uid: string, plaintext: Buffer): Promise<KmsEncryptResponse> {
    if (this.failing) throw new Error('rpc error: code = Unavailable desc = connection refused');
    this.encrypts++;
    return { ciphertext: this.seal(this.keyID, plaintext), keyID: this.keyID, annotations: new Map([['kms.example.com', Buffer.from('v1')]]) };
  }
  async decrypt(_uid: string, r: KmsDecryptRequest): Promise<Buffer> {
    if (this.failing) throw new Error('rpc error: code = Unavailable desc = connection refused');
    this.decrypts++;
    return this.open(r.keyID, r.ciphertext);
  }
  close(): void {}
}

const ctx = '/registry/secrets/default/db';
const plain = Buffer.from('k8s\0secret-bytes password=hunter2');
const prefix = Buffer.from('k8s:enc:kms:v2:vault:');

async function provider(kms: FakeKms, timings = {}): Promise<{ t: PrefixTransformers; probe: KmsV2Probe }> {
  const probe = new KmsV2Probe('vault', kms, timings);
  await probe.start();
  probe.stop();
  return { t: new PrefixTransformers([{ prefix, transformer: new KmsV2EnvelopeTransformer(kms, probe) }], 'no matching prefix found'), probe };
}

async function read(t: PrefixTransformers, value: Buffer): Promise<{ data: Buffer; stale: boolean }> {
  const p = t.prepareRead?.([value]);
  if (p) await p;
  return t.fromStorage(value, ctx);
}

describe('KMS v2 envelope (kube 1.33: HKDF seed, extended-nonce AES-GCM, EncryptedObject)', () => {
  it('derives data keys with HKDF-Expand only (SHA-256), as kube does', () => {
    const ikm = randomBytes(32);
    const salt = randomBytes(16);
    const info = randomBytes(32);
    // Node's HKDF is extract-then-expand: expanding its PRK by hand must give the same key.
    const prk = createHmac('sha256', salt).update(ikm).digest();
    assert.deepEqual(hkdfExpandSha256(prk, info), Buffer.from(hkdfSync('sha256', ikm, salt, info, 32)));
  });

  it('writes an EncryptedObject kube can read: seed type, key ID, encrypted seed, annotations, info || nonce || GCM', async () => {
    const kms = new FakeKms();
    const { t } = await provider(kms);
    const stored = t.toStorage(plain, ctx);
    assert.ok(stored.subarray(0, prefix.length).equals(prefix));
    assert.equal(stored.includes(Buffer.from('hunter2')), false);
    const o = EncryptedObject.toObject(EncryptedObject.decode(stored.subarray(prefix.length)), { enums: String }) as {
      encryptedData: Buffer; keyID: string; encryptedDEKSource: Buffer; annotations: Record<string, Buffer>; encryptedDEKSourceType: string;
    };
    assert.equal(o.keyID, 'key-1');
    assert.equal(o.encryptedDEKSourceType, 'HKDF_SHA256_XNONCE_AES_GCM_SEED');
    assert.deepEqual(Buffer.from(o.annotations['kms.example.com'] as Buffer).toString(), 'v1');
    // By hand: the plugin decrypts the seed, HKDF(seed, info) is the AES-256-GCM key, the etcd key authenticates.
    const seed = kms.open('key-1', Buffer.from(o.encryptedDEKSource));
    assert.equal(seed.length, 32);
    const data = Buffer.from(o.encryptedData);
    const key = createHmac('sha256', seed).update(Buffer.concat([data.subarray(0, 32), Buffer.of(1)])).digest();
    const d = createDecipheriv('aes-256-gcm', key, data.subarray(32, 44));
    d.setAAD(Buffer.from(ctx));
    d.setAuthTag(data.subarray(data.length - 16));
    assert.deepEqual(Buffer.concat([d.update(data.subarray(44, data.length - 16)), d.final()]), plain);
    // And back: the transformer reads what it wrote without asking the plugin (the seed is cached).
    const before = kms.decrypts;
    assert.deepEqual(await read(t, stored), { data: plain, stale: false });
    assert.equal(kms.decrypts, before);
  });

  it('reads a value built by hand the way kube writes it, asking the plugin once per data key', async () => {
    const kms = new FakeKms();
    const seed = randomBytes(32);
    const encryptedSeed = kms.seal('key-1', seed);
    const byHand = (p: Buffer): Buffer => {
      const info = randomBytes(32);
      const key = createHmac('sha256', seed).update(Buffer.concat([info, Buffer.of(1)])).digest();
      const nonce = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, nonce);
      c.setAAD(Buffer.from(ctx));
      const encryptedData = Buffer.concat([info, nonce, c.update(p), c.final(), c.getAuthTag()]);
      const msg = EncryptedObject.create({ encryptedData, keyID: 'key-1', encryptedDEKSource: encryptedSeed, annotations: {}, encryptedDEKSourceType: 1 });
      return Buffer.concat([prefix, Buffer.from(EncryptedObject.encode(msg).finish())]);
    };
    const { t } = await provider(kms);
    const v1 = byHand(plain);
    const v2 = byHand(Buffer.from('another'));
    assert.deepEqual((await read(t, v1)).data, plain);
    assert.deepEqual((await read(t, v2)).data, Buffer.from('another'));
    assert.equal(kms.decrypts, 1);
    // Authenticated by its etcd key: the same value under another key does not decrypt.
    assert.throws(() => t.fromStorage(v1, '/registry/secrets/default/other'), { message: 'cipher: message authentication failed' });
  });

  it('rotates the seed when Status reports a new key ID; old values stay readable and are stale', async () => {
    const kms = new FakeKms();
    const { t, probe } = await provider(kms);
    const old = t.toStorage(plain, ctx);
    kms.rotate('key-2');
    await probe.check(true);
    const fresh = t.toStorage(plain, ctx);
    assert.equal(EncryptedObject.decode(fresh.subarray(prefix.length)).toJSON().keyID, 'key-2');
    assert.deepEqual(await read(t, old), { data: plain, stale: true });
    assert.deepEqual(await read(t, fresh), { data: plain, stale: false });
    // Same key ID: the seed is reused (no new Encrypt call).
    const encrypts = kms.encrypts;
    await probe.check(true);
    assert.equal(kms.encrypts, encrypts);
  });

  it('a plugin outage fails health at once, writes after the seed expires, and uncached reads', async () => {
    const kms = new FakeKms();
    const { t, probe } = await provider(kms, { writeDEKMaxTtlMs: 200, unhealthyTtlMs: 0 });
    const stored = t.toStorage(plain, ctx);
    kms.failing = true;
    await assert.rejects(probe.check(true), {
      message: 'failed to perform status section of the healthz check for KMS Provider vault, error: rpc error: code = Unavailable desc = connection refused',
    });
    // Writes coast on the current seed until it expires, then fail with kube's message.
    t.toStorage(plain, ctx);
    await new Promise((r) => setTimeout(r, 250));
    assert.throws(() => t.toStorage(plain, ctx), (err: Error) => /^encryptedDEKSource with keyID hash "sha256:[0-9a-f]{64}" expired at .* \(current time is .*\); last error from the KMS plugin: failed to perform status/.test(err.message));
    // Reads whose data key is cached go on; a new server (empty cache) cannot read.
    assert.deepEqual((await read(t, stored)).data, plain);
    const restarted = new PrefixTransformers([{ prefix, transformer: new KmsV2EnvelopeTransformer(kms, probe) }], 'no matching prefix found');
    await assert.rejects(read(restarted, stored), { message: 'failed to decrypt DEK, error: rpc error: code = Unavailable desc = connection refused' });
    // Back: healthy again, writes work.
    kms.failing = false;
    await probe.check(true);
    assert.deepEqual((await read(t, t.toStorage(plain, ctx))).data, plain);
  });

  it('without a healthy plugin since start there is no seed: writes and reads fail clearly', async () => {
    const kms = new FakeKms();
    kms.failing = true;
    const { t } = await provider(kms);
    assert.throws(() => t.toStorage(plain, ctx), /KMSv2 provider "vault" has no data encryption key yet \(got unexpected nil transformer\): failed to perform status section/);
  });

  it('reports unhealthy plugins with kube messages (healthz, version, key ID)', async () => {
    const kms = new FakeKms();
    kms.healthz = 'broken';
    const probe = new KmsV2Probe('vault', kms);
    await assert.rejects(probe.check(true), { message: 'kmsv2 Provider vault is not healthy, error: got unexpected healthz status: broken' });
    kms.healthz = 'ok';
    kms.keyID = '';
    await assert.rejects(probe.check(true), /got invalid KMSv2 KeyID hash "": keyID is empty/);
  });
});
