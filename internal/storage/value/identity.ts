/**
 * The identity provider: values are stored as they are. Like kube's encrypt-check identity
 * transformer it refuses to "read" a value that carries an encryption prefix, so an encrypted
 * value is never handed to the decoder as if it were plaintext.
 */
import { TransformError, type ReadResult, type ValueTransformer } from './interface.js';

const encryptedPrefix = Buffer.from('k8s:enc:');

/** kube's words when the identity transformer meets an encrypted value. */
export const identityReadEncryptedMessage = 'identity transformer tried to read encrypted data';

/**
 * Whether value starts with "k8s:enc:" (written by an encryption provider). Cheap on the hot path:
 * Protobuf ("k8s\0"), JSON and YAML values differ from it by the fourth byte at the latest.
 */
export function isEncryptedValue(value: Buffer): boolean {
  return value.length >= 8 && value[0] === 0x6b && value[3] === 0x3a && value.subarray(0, 8).equals(encryptedPrefix);
}

/** The identity transformer (stateless; share it). */
export const identityTransformer: ValueTransformer = {
  fromStorage(data: Buffer): ReadResult {
    if (isEncryptedValue(data)) throw new TransformError(identityReadEncryptedMessage);
    return { data, stale: false };
  },
  toStorage(data: Buffer): Buffer {
    return data;
  },
};
