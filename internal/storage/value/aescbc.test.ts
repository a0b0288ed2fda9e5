import assert from 'node:assert/strict';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { AesCbcTransformer } from './aescbc.js';
import { TransformError } from './interface.js';

const key = Buffer.from('0123456789abcdef0123456789abcdef');
const plain = Buffer.from('{"kind":"Secret","data":{"password":"aHVudGVyMg=="}}');

describe('aescbc transformer (kube: IV || AES-CBC with PKCS#7)', () => {
  it('round-trips and writes 16-byte IV + padded ciphertext, never the plaintext', () => {
    const t = new AesCbcTransformer(key);
    const stored = t.toStorage(plain);
    assert.equal(stored.length, 16 + Math.ceil((plain.length + 1) / 16) * 16);
    assert.equal(stored.includes(Buffer.from('password')), false);
    assert.deepEqual(t.fromStorage(stored).data, plain);
    // A random IV: two writes differ.
    assert.notDeepEqual(t.toStorage(plain), stored);
  });

  it('reads a value built by hand the way kube builds it, and its output decrypts by hand', () => {
    for (const k of [randomBytes(16), randomBytes(24), randomBytes(32)]) {
      const iv = randomBytes(16);
      const c = createCipheriv(`aes-${k.length * 8}-cbc`, k, iv);
      const byHand = Buffer.concat([iv, c.update(plain), c.final()]);
      const t = new AesCbcTransformer(k);
      assert.deepEqual(t.fromStorage(byHand).data, plain);
      const ours = t.toStorage(plain);
      const d = createDecipheriv(`aes-${k.length * 8}-cbc`, k, ours.subarray(0, 16));
      assert.deepEqual(Buffer.concat([d.update(ours.subarray(16)), d.final()]), plain);
    }
  });

  it('refuses short, misaligned and wrongly padded data with kube messages', () => {
    const t = new AesCbcTransformer(key);
    assert.throws(() => t.fromStorage(Buffer.alloc(8)), { name: 'TransformError', message: 'the stored data was shorter than the required size' });
    assert.throws(() => t.fromStorage(Buffer.alloc(16 + 5)), { message: 'the stored data is not a multiple of the block size' });
    const other = new AesCbcTransformer(randomBytes(32)).toStorage(plain);
    assert.throws(() => t.fromStorage(other), (err: unknown) => err instanceof TransformError && /PKCS7|padding/.test(err.message));
  });

  it('refuses keys that are not 16, 24 or 32 bytes', () => {
    assert.throws(() => new AesCbcTransformer(Buffer.alloc(20)), /invalid key size 20/);
  });
});
