/**
 * Value transformers: what stands between an object's encoded bytes and the bytes stored in etcd
 * (kube's k8s.io/apiserver/pkg/storage/value). Encryption at rest is a transformer per resource,
 * chosen by --encryption-provider-config; a resource without one stores its bytes as they are.
 *
 * Every call gets the object's full etcd key (e.g. "/registry/secrets/default/db") as its
 * context: the AEAD providers authenticate it, so a value copied to another key does not decrypt.
 */

/** The plaintext of a stored value and whether it should be rewritten. */
export interface ReadResult {
  readonly data: Buffer;
  /**
   * True when the value was written by a provider or key that is no longer the first one (or, for
   * KMS v2, under another key ID): an update rewrites it even when the object did not change.
   */
  readonly stale: boolean;
}

/**
 * Turns stored values into plaintext and back. Both directions are synchronous; a transformer
 * that needs something from outside the process to read (a KMS DEK not yet cached) fetches it in
 * prepareRead, which callers run before fromStorage. Implementations never mutate their input.
 */
export interface ValueTransformer {
  /** The plaintext of data stored under context; throws TransformError when it cannot be read. */
  fromStorage(data: Buffer, context: string): ReadResult;
  /** The bytes to store for data under context; throws TransformError when it cannot encrypt. */
  toStorage(data: Buffer, context: string): Buffer;
  /**
   * Fetches what reading these values needs from outside the process, or returns undefined when
   * nothing is needed (the common case: no promise, no allocation). Never rejects: a failure is
   * remembered and thrown by fromStorage for the values it concerns.
   */
  prepareRead?(values: readonly Buffer[]): Promise<void> | undefined;
}

/** A value could not be transformed; the message is kube's words for why. */
export class TransformError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransformError';
  }
}

/** The message of err (an Error's message, anything else as text). */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * One error text for several, as Go's utilerrors aggregate prints them: the only message alone,
 * otherwise "[a, b]" with duplicates dropped.
 */
export function aggregateMessages(messages: readonly string[]): string {
  if (messages.length === 1) return messages[0] as string;
  const seen = [...new Set(messages)];
  return seen.length === 1 ? (seen[0] as string) : `[${seen.join(', ')}]`;
}
