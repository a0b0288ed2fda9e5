/**
 * The secretbox provider's per-key transformer (kube's secretbox.NewSecretboxTransformer): a
 * random 24-byte nonce, then NaCl secretbox (XSalsa20-Poly1305: 16-byte tag, then ciphertext).
 */
import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import { TransformError, type ReadResult, type ValueTransformer } from './interface.js';

const nonceSize = 24;

/** secretbox with one 32-byte key (copied). */
export class SecretboxTransformer implements ValueTransformer {
  private readonly key: Uint8Array;

  constructor(key: Buffer) {
    if (key.length !== nacl.secretbox.keyLength) throw new Error(`expected key size 32 for secretbox provider, got ${key.length}`);
    this.key = new Uint8Array(key);
  }

  fromStorage(data: Buffer): ReadResult {
    if (data.length < nacl.secretbox.overheadLength + nonceSize) throw new TransformError('the stored data was shorter than the required size');
    const opened = nacl.secretbox.open(data.subarray(nonceSize), data.subarray(0, nonceSize), this.key);
    // kube's words for a failed open (Go's secretbox.Open only says "not ok").
    if (!opened) throw new TransformError('output array was not large enough for encryption');
    return { data: Buffer.from(opened.buffer, opened.byteOffset, opened.byteLength), stale: false };
  }

  toStorage(data: Buffer): Buffer {
    const nonce = randomBytes(nonceSize);
    const boxed = nacl.secretbox(data, nonce, this.key);
    return Buffer.concat([nonce, boxed]);
  }
}
