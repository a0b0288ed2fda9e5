/**
 * The aesgcm provider's per-key transformer (kube's aes.NewGCMTransformer): a random 12-byte
 * nonce, then the AES-GCM ciphertext and its 16-byte tag, authenticated with the etcd key as
 * additional data. Also the cipher KMS v2 uses under its data keys.
 */
import { createCipheriv, createDecipheriv, randomBytes, type CipherGCMTypes } from 'node:crypto';
import { aesAlgorithm } from './aescbc.js';
import { TransformError, type ReadResult, type ValueTransformer } from './interface.js';

const nonceSize = 12;
const tagSize = 16;

/** AES-GCM open of nonce || ciphertext || tag with additional data; throws TransformError. */
export function gcmOpen(algorithm: string, key: Buffer, data: Buffer, additionalData: Buffer): Buffer {
  if (data.length < nonceSize) throw new TransformError('the stored data was shorter than the required size');
  if (data.length < nonceSize + tagSize) throw new TransformError('cipher: message authentication failed');
  const decipher = createDecipheriv(algorithm as CipherGCMTypes, key, data.subarray(0, nonceSize), { authTagLength: tagSize });
  decipher.setAAD(additionalData);
  decipher.setAuthTag(data.subarray(data.length - tagSize));
  try {
    return Buffer.concat([decipher.update(data.subarray(nonceSize, data.length - tagSize)), decipher.final()]);
  } catch {
    throw new TransformError('cipher: message authentication failed');
  }
}

/** AES-GCM seal with a random nonce: nonce || ciphertext || tag. */
export function gcmSeal(algorithm: string, key: Buffer, data: Buffer, additionalData: Buffer): Buffer {
  const nonce = randomBytes(nonceSize);
  const cipher = createCipheriv(algorithm as CipherGCMTypes, key, nonce, { authTagLength: tagSize });
  cipher.setAAD(additionalData);
  const body = cipher.update(data);
  const last = cipher.final();
  return Buffer.concat([nonce, body, last, cipher.getAuthTag()]);
}

/** AES-GCM with one key (16, 24 or 32 bytes; copied). */
export class AesGcmTransformer implements ValueTransformer {
  private readonly key: Buffer;
  private readonly algorithm: string;

  constructor(key: Buffer) {
    this.algorithm = aesAlgorithm('gcm', key);
    this.key = Buffer.from(key);
  }

  fromStorage(data: Buffer, context: string): ReadResult {
    return { data: gcmOpen(this.algorithm, this.key, data, Buffer.from(context)), stale: false };
  }

  toStorage(data: Buffer, context: string): Buffer {
    return gcmSeal(this.algorithm, this.key, data, Buffer.from(context));
  }
}
