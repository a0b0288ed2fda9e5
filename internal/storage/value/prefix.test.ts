import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { AesCbcTransformer } from './aescbc.js';
import { AesGcmTransformer } from './aesgcm.js';
import { identityTransformer, isEncryptedValue } from './identity.js';
import { PrefixTransformers } from './prefix.js';

const k1 = randomBytes(32);
const k2 = randomBytes(32);
const ctx = '/registry/secrets/ns/s';
const plain = Buffer.from('k8s\0plain');

function aescbc(...keys: Array<[string, Buffer]>): { prefix: Buffer; transformer: PrefixTransformers } {
  return {
    prefix: Buffer.from('k8s:enc:aescbc:v1:'),
    transformer: new PrefixTransformers(keys.map(([n, k]) => ({ prefix: Buffer.from(`${n}:`), transformer: new AesCbcTransformer(k) })), 'no matching key was found for the provided AES transformer'),
  };
}
const identity = { prefix: Buffer.alloc(0), transformer: identityTransformer };

describe('prefix transformers (kube: providers and keys by value prefix)', () => {
  it('writes with the first provider and key, prefixed "k8s:enc:aescbc:v1:<key>:"', () => {
    const t = new PrefixTransformers([aescbc(['key1', k1]), identity], 'no matching prefix found');
    const stored = t.toStorage(plain, ctx);
    assert.ok(stored.subarray(0, 23).equals(Buffer.from('k8s:enc:aescbc:v1:key1:')));
    assert.deepEqual(t.fromStorage(stored, ctx), { data: plain, stale: false });
  });

  it('reads with later providers and keys and reports the value stale (rotation)', () => {
    const old = new PrefixTransformers([aescbc(['key1', k1])], 'no matching prefix found').toStorage(plain, ctx);
    // A new key first: the old key still reads, and the value is stale.
    const rotated = new PrefixTransformers([aescbc(['key2', k2], ['key1', k1])], 'no matching prefix found');
    assert.deepEqual(rotated.fromStorage(old, ctx), { data: plain, stale: true });
    // A new provider first: the old provider still reads, stale.
    const gcm = { prefix: Buffer.from('k8s:enc:aesgcm:v1:'), transformer: new PrefixTransformers([{ prefix: Buffer.from('new:'), transformer: new AesGcmTransformer(k2) }], 'x') };
    const migrated = new PrefixTransformers([gcm, aescbc(['key1', k1]), identity], 'no matching prefix found');
    assert.deepEqual(migrated.fromStorage(old, ctx), { data: plain, stale: true });
    // Plaintext written before encryption was configured is read by identity, stale.
    assert.deepEqual(migrated.fromStorage(plain, ctx), { data: plain, stale: true });
    assert.deepEqual(migrated.fromStorage(migrated.toStorage(plain, ctx), ctx).stale, false);
  });

  it('tries every entry sharing a prefix (the same provider listed twice during a rotation)', () => {
    const old = new PrefixTransformers([aescbc(['key1', k1])], 'x').toStorage(plain, ctx);
    const both = new PrefixTransformers([aescbc(['key1', k2]), aescbc(['key1', k1])], 'no matching prefix found');
    assert.deepEqual(both.fromStorage(old, ctx).data, plain);
  });

  it('fails with kube messages when no key or provider can read a value', () => {
    const old = new PrefixTransformers([aescbc(['key1', k1])], 'x').toStorage(plain, ctx);
    const withoutKey = new PrefixTransformers([aescbc(['key2', k2]), identity], 'no matching prefix found');
    assert.throws(() => withoutKey.fromStorage(old, ctx), { name: 'TransformError', message: 'no matching key was found for the provided AES transformer' });
    const gcmOnly = new PrefixTransformers([{ prefix: Buffer.from('k8s:enc:aesgcm:v1:'), transformer: new AesGcmTransformer(k1) }], 'no matching prefix found');
    assert.throws(() => gcmOnly.fromStorage(old, ctx), { message: 'no matching prefix found' });
    assert.throws(() => gcmOnly.fromStorage(plain, ctx), { message: 'no matching prefix found' });
  });

  it('identity refuses encrypted values and recognises them cheaply', () => {
    assert.throws(() => identityTransformer.fromStorage(Buffer.from('k8s:enc:aescbc:v1:k:xxxx'), ctx), { message: 'identity transformer tried to read encrypted data' });
    assert.equal(isEncryptedValue(Buffer.from('k8s\0\n\x0fstuff')), false);
    assert.equal(isEncryptedValue(Buffer.from('{"kind":"Secret"}')), false);
    assert.equal(isEncryptedValue(Buffer.from('k8s:enc:')), true);
  });
});
