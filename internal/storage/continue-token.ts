/**
 * Continue tokens: base64url of {"v":"meta.k8s.io/v1","rv":<revision>,"start":<key after the prefix>},
 * the shape kube-apiserver uses, so a token carries the snapshot revision of the first page.
 */
import { StorageError } from './errors.js';

const tokenVersion = 'meta.k8s.io/v1';

/** A decoded continue token. revision is -1 for "continue at the latest revision". */
export interface ContinuePosition {
  /** The full key to resume at (inclusive). */
  readonly startKey: string;
  readonly revision: bigint;
}

/** Encodes a token that resumes at nextKey (a full key under keyPrefix) reading at revision. */
export function encodeContinue(nextKey: string, keyPrefix: string, revision: bigint): string {
  const start = nextKey.startsWith(keyPrefix) ? nextKey.slice(keyPrefix.length) : nextKey;
  const json = JSON.stringify({ v: tokenVersion, rv: Number(revision), start });
  return Buffer.from(json, 'utf8').toString('base64url');
}

function invalid(reason: string): StorageError {
  return new StorageError('InvalidArgument', '', `continue key is not valid: ${reason}`);
}

/** Decodes a token against keyPrefix; throws StorageError InvalidArgument with kube's texts. */
export function decodeContinue(token: string, keyPrefix: string): ContinuePosition {
  let parsed: unknown;
  try {
    const raw = Buffer.from(token, 'base64url').toString('utf8');
    parsed = JSON.parse(raw);
  } catch (err) {
    throw invalid(`${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid('malformed token');
  const { v, rv, start } = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (v !== tokenVersion) throw invalid(`server does not recognize this encoded key version: ${String(v)}`);
  if (typeof rv !== 'number' || !Number.isInteger(rv) || rv === 0 || rv < -1) {
    throw invalid('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (typeof start !== 'string' || start.length === 0) throw invalid('encoded start key is empty');
  // The start key is relative to the prefix; refuse anything that could escape it.
  const cleaned = start.replace(/^\/+/, '');
  if (cleaned.split('/').some((seg) => seg === '..' || seg === '.')) throw invalid('encoded key contains path traversal');
  return { startKey: keyPrefix + start, revision: BigInt(rv) };
}
