/**
 * The aescbc provider's per-key transformer (kube's aes.NewCBCTransformer): a random 16-byte IV,
 * then the AES-CBC ciphertext of the PKCS#7-padded plaintext. No authentication: kube keeps it
 * for existing clusters and recommends aesgcm, secretbox or KMS v2 instead.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { TransformError, type ReadResult, type ValueTransformer } from './interface.js';

const blockSize = 16;

/** The Node cipher name for an AES key of this length (16, 24 or 32 bytes). */
export function aesAlgorithm(mode: 'cbc' | 'gcm', key: Buffer): string {
  if (key.length !== 16 && key.length !== 24 && key.length !== 32) throw new Error(`crypto/aes: invalid key size ${key.length}`);
  return `aes-${key.length * 8}-${mode}`;
}

/** AES-CBC with one key; the key is copied. */
export class AesCbcTransformer implements ValueTransformer {
  private readonly key: Buffer;
  private readonly algorithm: string;

  constructor(key: Buffer) {
    this.algorithm = aesAlgorithm('cbc', key);
    this.key = Buffer.from(key);
  }

  fromStorage(data: Buffer): ReadResult {
    if (data.length < blockSize) throw new TransformError('the stored data was shorter than the required size');
    const body = data.subarray(blockSize);
    if (body.length % blockSize !== 0) throw new TransformError('the stored data is not a multiple of the block size');
    if (body.length === 0) throw new TransformError('invalid PKCS7 data (empty or not padded)');
    const decipher = createDecipheriv(this.algorithm, this.key, data.subarray(0, blockSize));
    decipher.setAutoPadding(false);
    const result = Buffer.concat([decipher.update(body), decipher.final()]);
    // PKCS#7 checked by hand, for kube's messages.
    const pad = result[result.length - 1] as number;
    if (pad === 0 || pad > result.length) throw new TransformError('invalid PKCS7 data (empty or not padded)');
    for (let i = result.length - pad; i < result.length; i++) {
      if (result[i] !== pad) throw new TransformError('invalid padding on input');
    }
    return { data: result.subarray(0, result.length - pad), stale: false };
  }

  toStorage(data: Buffer): Buffer {
    const iv = randomBytes(blockSize);
    const cipher = createCipheriv(this.algorithm, this.key, iv);
    return Buffer.concat([iv, cipher.update(data), cipher.final()]);
  }
}
