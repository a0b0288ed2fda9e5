/**
 * apiserver.config.k8s.io/v1 EncryptionConfiguration, the file --encryption-provider-config
 * names, after decoding and kube's defaulting (kms apiVersion "v1", timeout 3s, cachesize 1000
 * for v1 only).
 */

/** The whole file. */
export interface EncryptionConfiguration {
  readonly resources: readonly ResourceConfiguration[];
}

/** One rule: these resources use these providers, the first one writing. */
export interface ResourceConfiguration {
  /** "secrets", "deployments.apps", "*." (the core group), "*.apps", "*.*". */
  readonly resources: readonly string[];
  readonly providers: readonly ProviderConfiguration[];
}

/** Exactly one of the fields is set in a valid provider. */
export interface ProviderConfiguration {
  readonly aesgcm?: KeysConfiguration;
  readonly aescbc?: KeysConfiguration;
  readonly secretbox?: KeysConfiguration;
  readonly identity?: Record<string, never>;
  readonly kms?: KmsConfiguration;
}

/** The keys of an aesgcm, aescbc or secretbox provider; the first one writes. */
export interface KeysConfiguration {
  readonly keys: readonly Key[];
}

/** A named key; secret is base64 (standard encoding). */
export interface Key {
  readonly name: string;
  readonly secret: string;
}

/** A KMS provider. */
export interface KmsConfiguration {
  /** "v1" or "v2" (defaulted to "v1", which kube 1.33 refuses unless the KMSv1 feature gate is on). */
  readonly apiVersion: string;
  readonly name: string;
  /** v1 only; undefined for v2 unless the file sets it (which is invalid). */
  readonly cachesize: number | undefined;
  /** "unix:///path/to/socket". */
  readonly endpoint: string;
  /** Milliseconds (defaulted to 3s). */
  readonly timeoutMs: number;
}
