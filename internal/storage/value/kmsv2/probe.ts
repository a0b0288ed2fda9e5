/**
 * The KMS v2 plugin probe (kube's kmsv2PluginProbe): polls Status, answers the kms-providers
 * health check, and owns the write state. When Status reports a key ID other than the one the
 * current seed was encrypted under, a new 32-byte seed is generated and encrypted by the plugin;
 * while the key ID stays the same the seed is reused and its write lifetime extended. A plugin
 * that stops answering lets writes go on with the last seed for writeDEKMaxTtlMs (kube: 3
 * minutes), then writes fail; reads go on with every data key already cached.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { aggregateMessages, errorMessage } from '../interface.js';
import { EncryptedDEKSourceType, dekCacheKey, validateAnnotations, validateKeyID } from './encrypted-object.js';
import type { KmsService } from './service.js';
import { ExtendedNonceGcmTransformer, seedSize } from './xnonce-gcm.js';

/** The seed writes use now, and what is stored beside every value it encrypts. */
export interface WriteState {
  readonly transformer: ExtendedNonceGcmTransformer;
  readonly keyID: string;
  readonly encryptedDEKSource: Buffer;
  readonly annotations: ReadonlyMap<string, Buffer>;
  readonly encryptedDEKSourceType: number;
  /** The DEK cache key of this seed. */
  readonly cacheKey: string;
  readonly uid: string;
  /** Writes are refused after this time (ms since the epoch) unless a healthy Status extends it. */
  expiresAt: number;
}

/** Timings of the probe; kube's values are the defaults (tests shorten them). */
export interface KmsProbeTimings {
  /** How long a healthy check answer is reused (kube: 20 s). */
  readonly healthyTtlMs?: number;
  /** How long a failed check answer is reused (kube: 3 s). */
  readonly unhealthyTtlMs?: number;
  /** Status poll interval while healthy (kube: 1 min). */
  readonly pollIntervalMs?: number;
  /** Status poll interval while unhealthy (kube: 10 s). */
  readonly unhealthyPollIntervalMs?: number;
  /** How long writes may use a seed after the last healthy Status (kube: 3 min). */
  readonly writeDEKMaxTtlMs?: number;
}

/** "sha256:<hex>" of s, or "" for "" (how kube logs key IDs). */
export function hashIfNotEmpty(s: string): string {
  return s ? `sha256:${createHash('sha256').update(s).digest('hex')}` : '';
}

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** The probe of one KMS v2 provider. */
export class KmsV2Probe {
  private state: WriteState | undefined;
  private last: { error: string | undefined; at: number } = { error: undefined, at: 0 };
  private ttlMs: number;
  private version = '';
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly t: Required<KmsProbeTimings>;

  constructor(
    readonly name: string,
    private readonly service: KmsService,
    timings: KmsProbeTimings = {},
    private readonly log: (message: string) => void = () => undefined,
  ) {
    this.t = {
      healthyTtlMs: timings.healthyTtlMs ?? 20_000,
      unhealthyTtlMs: timings.unhealthyTtlMs ?? 3_000,
      pollIntervalMs: timings.pollIntervalMs ?? 60_000,
      unhealthyPollIntervalMs: timings.unhealthyPollIntervalMs ?? 10_000,
      writeDEKMaxTtlMs: timings.writeDEKMaxTtlMs ?? 180_000,
    };
    this.ttlMs = this.t.unhealthyTtlMs;
  }

  /**
   * Primes the state with one check (awaited, as kube primes inline) and starts polling: every
   * pollIntervalMs while healthy, every unhealthyPollIntervalMs after a failure.
   */
  async start(): Promise<void> {
    const ok = await this.checkAndLog();
    this.schedule(ok);
  }

  /** Stops polling. In-flight calls finish; the service is closed by its owner. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(healthy: boolean): void {
    if (this.stopped) return;
    this.timer = setTimeout(
      () => {
        void this.checkAndLog().then((ok) => this.schedule(ok));
      },
      healthy ? this.t.pollIntervalMs : this.t.unhealthyPollIntervalMs,
    );
    this.timer.unref();
  }

  private async checkAndLog(): Promise<boolean> {
    try {
      await this.check(true);
      return true;
    } catch (err) {
      this.log(`kms plugin failed health check probe name=${JSON.stringify(this.name)}: ${errorMessage(err)}`);
      return false;
    }
  }

  /**
   * The health check: resolves when the plugin is healthy, rejects with kube's message otherwise.
   * A recent answer is reused (healthyTtlMs / unhealthyTtlMs) unless force; checks never overlap.
   */
  async check(force = false): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
    if (!force && Date.now() - this.last.at < this.ttlMs) {
      if (this.last.error !== undefined) throw new Error(this.last.error);
      return;
    }
    const run = this.runCheck();
    this.running = run;
    try {
      await run;
    } finally {
      this.running = undefined;
    }
  }

  private async runCheck(): Promise<void> {
    let error: string | undefined;
    try {
      const status = await this.service.status().catch((err: unknown) => {
        throw new Error(`failed to perform status section of the healthz check for KMS Provider ${this.name}, error: ${errorMessage(err)}`);
      });
      const errs: string[] = [];
      if (status.healthz !== 'ok') errs.push(`got unexpected healthz status: ${status.healthz}`);
      if (status.version !== 'v2' && status.version !== 'v2beta1') {
        errs.push(`expected KMSv2 API version v2, got ${status.version}`);
      } else {
        this.version ||= status.version;
        if (this.version !== status.version) errs.push(`KMSv2 API version should not change after the initial status response version ${this.version}, got ${status.version}`);
      }
      const keyIDError = validateKeyID(status.keyID);
      if (keyIDError) {
        errs.push(`got invalid KMSv2 KeyID hash ${JSON.stringify(hashIfNotEmpty(status.keyID))}: ${keyIDError}`);
      } else {
        const rotateError = await this.rotateOnKeyIDChange(status.keyID);
        if (rotateError) errs.push(rotateError);
      }
      if (errs.length > 0) throw new Error(`kmsv2 Provider ${this.name} is not healthy, error: ${aggregateMessages(errs)}`);
    } catch (err) {
      error = errorMessage(err);
    }
    this.last = { error, at: Date.now() };
    this.ttlMs = error === undefined ? this.t.healthyTtlMs : this.t.unhealthyTtlMs;
    if (error !== undefined) throw new Error(error);
  }

  /** Extends the current seed's life, or makes a new seed when the key ID changed; the error text when that failed. */
  private async rotateOnKeyIDChange(statusKeyID: string): Promise<string | undefined> {
    const expiresAt = Date.now() + this.t.writeDEKMaxTtlMs;
    const current = this.state;
    if (current && current.keyID === statusKeyID) {
      current.expiresAt = expiresAt;
      return undefined;
    }
    const uid = randomUUID();
    let errGen: string | undefined;
    let encryptKeyID = '';
    try {
      const seed = randomBytes(seedSize);
      const resp = await this.service.encrypt(uid, seed).catch((err: unknown) => {
        throw new Error(`failed to encrypt DEK, error: ${errorMessage(err)}`);
      });
      encryptKeyID = resp.keyID;
      const invalid =
        (resp.ciphertext.length === 0 ? 'failed to validate encrypted DEK source: encrypted DEK source is empty' : undefined) ??
        (resp.ciphertext.length > 1024 ? `failed to validate encrypted DEK source: encrypted DEK source is ${resp.ciphertext.length} bytes, which exceeds the max size of 1024` : undefined) ??
        prefixed('failed to validate key id: ', validateKeyID(resp.keyID)) ??
        prefixed('failed to validate annotations: ', validateAnnotations(resp.annotations));
      if (invalid) throw new Error(invalid);
      if (resp.keyID === statusKeyID) {
        const type = EncryptedDEKSourceType.HKDF_SHA256_XNONCE_AES_GCM_SEED;
        this.state = {
          transformer: new ExtendedNonceGcmTransformer(seed),
          keyID: resp.keyID,
          encryptedDEKSource: resp.ciphertext,
          annotations: resp.annotations,
          encryptedDEKSourceType: type,
          cacheKey: dekCacheKey(type, resp.ciphertext, resp.keyID, resp.annotations),
          uid,
          expiresAt,
        };
        this.log(`successfully rotated DEK uid=${uid} newKeyIDHash=${hashIfNotEmpty(resp.keyID)} oldKeyIDHash=${hashIfNotEmpty(current?.keyID ?? '')}`);
        return undefined;
      }
    } catch (err) {
      errGen = errorMessage(err);
    }
    const errState = current ? '<nil>' : 'got unexpected nil transformer';
    return (
      `failed to rotate DEK uid=${JSON.stringify(uid)}, useSeed=true, errState=${errState}, errGen=${errGen ?? '<nil>'}, ` +
      `statusKeyIDHash=${JSON.stringify(hashIfNotEmpty(statusKeyID))}, encryptKeyIDHash=${JSON.stringify(hashIfNotEmpty(encryptKeyID))}, ` +
      `stateKeyIDHash=${JSON.stringify(hashIfNotEmpty(current?.keyID ?? ''))}, expirationTimestamp=${current ? rfc3339(current.expiresAt) : '0001-01-01T00:00:00Z'}`
    );
  }

  /**
   * The state reads and writes use; throws when there is none yet (kube reads nothing without
   * one). The message names the provider and the last failure of its plugin.
   */
  currentState(): WriteState {
    if (this.state) return this.state;
    const why = this.last.error ?? 'the KMS plugin has not answered Status yet';
    throw new Error(`KMSv2 provider ${JSON.stringify(this.name)} has no data encryption key yet (got unexpected nil transformer): ${why}`);
  }

  /** The state writes may use now; throws (kube's words) once it expired. */
  writeState(): WriteState {
    const s = this.currentState();
    const now = Date.now();
    if (now > s.expiresAt) {
      const why = this.last.error ? `; last error from the KMS plugin: ${this.last.error}` : '';
      throw new Error(`encryptedDEKSource with keyID hash ${JSON.stringify(hashIfNotEmpty(s.keyID))} expired at ${rfc3339(s.expiresAt)} (current time is ${rfc3339(now)})${why}`);
    }
    return s;
  }
}

function prefixed(prefix: string, message: string | undefined): string | undefined {
  return message === undefined ? undefined : prefix + message;
}
