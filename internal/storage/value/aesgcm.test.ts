import assert from 'node:assert/strict';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { AesGcmTransformer } from './aesgcm.js';

const key = randomBytes(32);
const plain = Buffer.from('k8s\0 protobuf secret bytes: hunter2');
const etcdKey = '/registry/secrets/default/db';

describe('aesgcm transformer (kube: nonce || AES-GCM ciphertext || tag, etcd key as additional data)', () => {
  it('round-trips and hides the plaintext', () => {
    const t = new AesGcmTransformer(key);
    const stored = t.toStorage(plain, etcdKey);
    assert.equal(stored.length, 12 + plain.length + 16);
    assert.equal(stored.includes(Buffer.from('hunter2')), false);
    assert.deepEqual(t.fromStorage(stored, etcdKey).data, plain);
  });

  it('reads a value built by hand the way kube builds it, and its output decrypts by hand', () => {
    const nonce = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', key, nonce);
    c.setAAD(Buffer.from(etcdKey));
    const byHand = Buffer.concat([nonce, c.update(plain), c.final(), c.getAuthTag()]);
    const t = new AesGcmTransformer(key);
    assert.deepEqual(t.fromStorage(byHand, etcdKey).data, plain);

    const ours = t.toStorage(plain, etcdKey);
    const d = createDecipheriv('aes-256-gcm', key, ours.subarray(0, 12));
    d.setAAD(Buffer.from(etcdKey));
    d.setAuthTag(ours.subarray(ours.length - 16));
    assert.deepEqual(Buffer.concat([d.update(ours.subarray(12, ours.length - 16)), d.final()]), plain);
  });

  it('does not decrypt under another etcd key or with another key (Go\'s message)', () => {
    const t = new AesGcmTransformer(key);
    const stored = t.toStorage(plain, etcdKey);
    assert.throws(() => t.fromStorage(stored, '/registry/secrets/default/other'), { message: 'cipher: message authentication failed' });
    assert.throws(() => new AesGcmTransformer(randomBytes(32)).fromStorage(stored, etcdKey), { message: 'cipher: message authentication failed' });
    assert.throws(() => t.fromStorage(Buffer.alloc(5), etcdKey), { message: 'the stored data was shorter than the required size' });
  });
});
