/**
 * The KMS v2 envelope transformer (kube's kmsv2 envelopeTransformer). A write encrypts locally
 * with the probe's current seed (ExtendedNonceGcm) and stores the EncryptedObject: the
 * ciphertext, the key ID, the seed as the plugin encrypted it, its type and the plugin's
 * annotations. A read finds the data key in the DEK cache by the object's encrypted seed; a
 * miss asks the plugin to Decrypt it (in prepareRead, before the synchronous read).
 */
import { randomUUID } from 'node:crypto';
import { AesGcmTransformer } from '../aesgcm.js';
import { errorMessage, TransformError, type ReadResult, type ValueTransformer } from '../interface.js';
import { DekCache } from './dek-cache.js';
import { EncryptedDEKSourceType, decodeEncryptedObject, dekCacheKey, encodeEncryptedObject, type EncryptedObject } from './encrypted-object.js';
import type { KmsV2Probe } from './probe.js';
import type { KmsService } from './service.js';
import { ExtendedNonceGcmTransformer } from './xnonce-gcm.js';

const maxRememberedFailures = 1000;

/** One KMS v2 provider's transformer (without its "k8s:enc:kms:v2:<name>:" prefix). */
export class KmsV2EnvelopeTransformer implements ValueTransformer {
  private readonly inflight = new Map<string, Promise<void>>();
  /** Why fetching a data key failed, by cache key, until a later fetch succeeds. */
  private readonly failures = new Map<string, string>();

  constructor(
    private readonly service: KmsService,
    private readonly probe: KmsV2Probe,
    private readonly cache = new DekCache(),
  ) {}

  fromStorage(data: Buffer, context: string): ReadResult {
    const o = decodeEncryptedObject(data);
    let state;
    try {
      state = this.probe.currentState();
    } catch (err) {
      throw new TransformError(errorMessage(err));
    }
    const key = cacheKeyOf(o);
    const transformer = this.cache.get(key);
    if (!transformer) {
      const why = this.failures.get(key) ?? 'the data key was not fetched from the KMS plugin';
      throw new TransformError(`failed to decrypt DEK, error: ${why}`);
    }
    const r = transformer.fromStorage(o.encryptedData, context);
    // Written under another key ID (or DEK scheme) than writes use now: rewrite on the next update.
    return { data: r.data, stale: r.stale || o.keyID !== state.keyID || o.encryptedDEKSourceType !== state.encryptedDEKSourceType };
  }

  toStorage(data: Buffer, context: string): Buffer {
    let state;
    try {
      state = this.probe.writeState();
    } catch (err) {
      throw new TransformError(errorMessage(err));
    }
    // Cached by its own key so that reading what was just written never asks the plugin.
    if (!this.cache.get(state.cacheKey)) this.cache.set(state.cacheKey, state.transformer);
    return encodeEncryptedObject({
      encryptedData: state.transformer.toStorage(data, context),
      keyID: state.keyID,
      encryptedDEKSource: state.encryptedDEKSource,
      annotations: state.annotations,
      encryptedDEKSourceType: state.encryptedDEKSourceType,
    });
  }

  prepareRead(values: readonly Buffer[]): Promise<void> | undefined {
    let pending: Promise<void>[] | undefined;
    for (const v of values) {
      let o: EncryptedObject;
      try {
        o = decodeEncryptedObject(v);
      } catch {
        continue; // fromStorage reports it
      }
      const key = cacheKeyOf(o);
      if (this.cache.get(key)) continue;
      let p = this.inflight.get(key);
      if (!p) {
        p = this.fetch(key, o);
        this.inflight.set(key, p);
      }
      (pending ??= []).push(p);
    }
    if (!pending) return undefined;
    return pending.length === 1 ? pending[0] : Promise.all(pending).then(() => undefined);
  }

  private async fetch(key: string, o: EncryptedObject): Promise<void> {
    try {
      const plaintext = await this.service.decrypt(randomUUID(), { ciphertext: o.encryptedDEKSource, keyID: o.keyID, annotations: o.annotations });
      const transformer =
        o.encryptedDEKSourceType === EncryptedDEKSourceType.HKDF_SHA256_XNONCE_AES_GCM_SEED ? new ExtendedNonceGcmTransformer(plaintext) : new AesGcmTransformer(plaintext);
      this.cache.set(key, transformer);
      this.failures.delete(key);
    } catch (err) {
      if (this.failures.size >= maxRememberedFailures) this.failures.clear();
      this.failures.set(key, errorMessage(err));
    } finally {
      this.inflight.delete(key);
    }
  }
}

function cacheKeyOf(o: EncryptedObject): string {
  return dekCacheKey(o.encryptedDEKSourceType, o.encryptedDEKSource, o.keyID, o.annotations);
}
