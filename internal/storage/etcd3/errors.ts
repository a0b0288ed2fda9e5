/**
 * The one place that recognises etcd's error texts (the etcd3 client reports most server errors as
 * a plain EtcdError whose message carries etcd's own words) and turns them into StorageErrors.
 */
import { StorageError } from '../errors.js';

const compactedText = 'required revision has been compacted';
const futureRevisionText = 'required revision is a future revision';

/** True when err is etcd's "required revision has been compacted". */
export function isCompacted(err: unknown): boolean {
  return err instanceof Error && err.message.includes(compactedText);
}

/** True when err is etcd's "required revision is a future revision". */
export function isFutureRevision(err: unknown): boolean {
  return err instanceof Error && err.message.includes(futureRevisionText);
}

/**
 * True when a watch was canceled for compaction. etcd cancels such a watch with compact_revision
 * set and no cancel reason, which the client reports as "Watcher canceled: " and nothing after.
 */
export function isWatchCompacted(err: unknown): boolean {
  return isCompacted(err) || (err instanceof Error && /Watcher canceled:\s*$/.test(err.message));
}

/** Wraps any other etcd client failure as Unreachable, keeping StorageErrors as they are. */
export function interpretEtcdError(err: unknown, key: string): StorageError {
  if (err instanceof StorageError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new StorageError('Unreachable', key, message);
}
