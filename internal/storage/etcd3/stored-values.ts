/**
 * Stored values through one resource's transformer (encryption at rest): plaintext on the way
 * out of etcd, sealed on the way in, and the data keys a KMS provider must fetch before a batch of
 * values can be read. Without a transformer values pass as they are (no copy), and one carrying an
 * encryption prefix is refused, as kube's identity transformer refuses it.
 */
import type { IKeyValue } from 'etcd3';
import { StorageError } from '../errors.js';
import { identityReadEncryptedMessage, isEncryptedValue } from '../value/identity.js';
import { errorMessage } from '../value/interface.js';
import type { TransformerSlot } from '../value/resource-transformers.js';

/** A value the store cannot transform: kube's InternalError, naming the key in lists and watches. */
function transformFailed(key: string, why: string, withKey: boolean): StorageError {
  return new StorageError('Internal', key, withKey ? `unable to transform key ${JSON.stringify(key)}: ${why}` : why);
}

/** One resource's values as the etcd3 store reads and writes them. */
export class StoredValues {
  /** slot: the resource's transformer; undefined for a store with no encryption configured. */
  constructor(private readonly slot: TransformerSlot | undefined) {}

  /**
   * The plaintext of value stored under key, and whether it was written by a provider or key that
   * no longer writes (an update then rewrites it even if unchanged). withKey: a failure names the
   * key (kube does so in lists and watches; a get names only the reason). Throws StorageError Internal.
   */
  read(value: Buffer, key: string, withKey: boolean): { data: Buffer; stale: boolean } {
    const t = this.slot?.current;
    if (t === undefined) {
      if (isEncryptedValue(value)) throw transformFailed(key, identityReadEncryptedMessage, withKey);
      return { data: value, stale: false };
    }
    try {
      return t.fromStorage(value, key);
    } catch (err) {
      throw transformFailed(key, errorMessage(err), withKey);
    }
  }

  /** The bytes to store for plaintext data under key; throws StorageError Internal when encryption fails. */
  seal(data: Buffer, key: string): Buffer {
    const t = this.slot?.current;
    if (t === undefined) return data;
    try {
      return t.toStorage(data, key);
    } catch (err) {
      throw new StorageError('Internal', key, errorMessage(err));
    }
  }

  /**
   * Fetches what reading these values needs from outside (KMS data keys not cached yet); undefined
   * (no promise) when nothing is needed, which is always the case without KMS.
   */
  prepare(kvs: readonly IKeyValue[]): Promise<void> | undefined {
    const t = this.slot?.current;
    if (t?.prepareRead === undefined || kvs.length === 0) return undefined;
    const values: Buffer[] = [];
    for (const kv of kvs) values.push(kv.value);
    return t.prepareRead(values);
  }

  /** Prepares a watch response's values (current and previous) for reading. */
  prepareEvents(events: ReadonlyArray<{ kv: IKeyValue; prev_kv?: IKeyValue }>): Promise<void> | undefined {
    if (this.slot?.current?.prepareRead === undefined) return undefined;
    const all: IKeyValue[] = [];
    for (const ev of events) {
      all.push(ev.kv);
      if (ev.prev_kv) all.push(ev.prev_kv);
    }
    return this.prepare(all);
  }
}
