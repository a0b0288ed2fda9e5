import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import nacl from 'tweetnacl';
import { SecretboxTransformer } from './secretbox.js';

const key = randomBytes(32);
const plain = Buffer.from('{"data":{"token":"c2VjcmV0"}}');

describe('secretbox transformer (kube: 24-byte nonce || NaCl secretbox)', () => {
  it('round-trips; the layout is nonce, then Poly1305 tag and XSalsa20 ciphertext', () => {
    const t = new SecretboxTransformer(key);
    const stored = t.toStorage(plain);
    assert.equal(stored.length, 24 + 16 + plain.length);
    assert.equal(stored.includes(Buffer.from('c2VjcmV0')), false);
    assert.deepEqual(t.fromStorage(stored).data, plain);
    // The box after the nonce is exactly what NaCl's secretbox (Go's secretbox.Seal) produces.
    const opened = nacl.secretbox.open(stored.subarray(24), stored.subarray(0, 24), key);
    assert.ok(opened);
    assert.deepEqual(Buffer.from(opened), plain);
  });

  it('reads a value sealed by hand with a chosen nonce', () => {
    const nonce = randomBytes(24);
    const byHand = Buffer.concat([nonce, nacl.secretbox(plain, nonce, key)]);
    assert.deepEqual(new SecretboxTransformer(key).fromStorage(byHand).data, plain);
  });

  it('refuses a wrong key and short data with kube messages, and 16-byte keys', () => {
    const stored = new SecretboxTransformer(key).toStorage(plain);
    assert.throws(() => new SecretboxTransformer(randomBytes(32)).fromStorage(stored), { message: 'output array was not large enough for encryption' });
    assert.throws(() => new SecretboxTransformer(key).fromStorage(Buffer.alloc(30)), { message: 'the stored data was shorter than the required size' });
    assert.throws(() => new SecretboxTransformer(Buffer.alloc(16)), /expected key size 32 for secretbox provider, got 16/);
  });
});
