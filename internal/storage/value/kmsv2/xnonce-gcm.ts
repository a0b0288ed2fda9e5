/**
 * kube's "extended nonce" AES-GCM (aes.NewHKDFExtendedNonceGCMTransformer), what KMS v2 encrypts
 * with under a seed: every write draws 32 random bytes of info, derives a fresh AES-256 key as
 * HKDF-Expand(SHA-256, seed, info) (expand only: the seed is already a uniformly random key), and
 * stores info || nonce (12) || AES-GCM ciphertext || tag (16), with the etcd key as additional data.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { gcmOpen, gcmSeal } from '../aesgcm.js';
import { TransformError, type ReadResult, type ValueTransformer } from '../interface.js';

/** Size of the seed, the info and the derived key (kube's commonSize). */
export const seedSize = 32;
const infoSize = 32;

/** HKDF-Expand with SHA-256 to 32 bytes: one block, T(1) = HMAC(prk, info || 0x01). */
export function hkdfExpandSha256(prk: Buffer, info: Buffer): Buffer {
  return createHmac('sha256', prk).update(info).update(Buffer.of(1)).digest();
}

/** The transformer for one seed (at least 32 bytes; copied). */
export class ExtendedNonceGcmTransformer implements ValueTransformer {
  private readonly seed: Buffer;

  constructor(seed: Buffer) {
    if (seed.length < seedSize) throw new TransformError(`invalid seed length ${seed.length} used for key generation`);
    this.seed = Buffer.from(seed);
  }

  fromStorage(data: Buffer, context: string): ReadResult {
    if (data.length < infoSize) throw new TransformError('the stored data was shorter than the required size');
    const key = hkdfExpandSha256(this.seed, data.subarray(0, infoSize));
    return { data: gcmOpen('aes-256-gcm', key, data.subarray(infoSize), Buffer.from(context)), stale: false };
  }

  toStorage(data: Buffer, context: string): Buffer {
    const info = randomBytes(infoSize);
    const key = hkdfExpandSha256(this.seed, info);
    return Buffer.concat([info, gcmSeal('aes-256-gcm', key, data, Buffer.from(context))]);
  }
}
