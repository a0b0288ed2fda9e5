/**
 * Continue tokens: base64url of {"v":"meta.k8s.io/v1","rv":<revision>,"start":<key after the prefix>},
 * the shape kube-apiserver uses, so a token carries the snapshot revision of the first page.
 */
import { posix } from 'node:path';
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

/**
 * Go's base64.RawURLEncoding: the URL alphabet without padding; any other byte (padding
 * included) is refused at its offset, as Go reports it.
 */
function decodeRawUrlBase64(token: string): string {
  const bad = /[^A-Za-z0-9_-]/.exec(token);
  if (bad) throw invalid(`illegal base64 data at input byte ${bad.index}`);
  // A lone last character carries fewer than 8 bits: Go refuses it at that offset.
  if (token.length % 4 === 1) throw invalid(`illegal base64 data at input byte ${token.length - 1}`);
  return Buffer.from(token, 'base64url').toString('utf8');
}

/** Go's path.Clean of an absolute path: node's normalisation without a trailing slash. */
function cleanPath(key: string): string {
  const n = posix.normalize(key);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

/** Decodes a token against keyPrefix; throws StorageError InvalidArgument with kube's texts. */
export function decodeContinue(token: string, keyPrefix: string): ContinuePosition {
  const raw = decodeRawUrlBase64(token);
  let parsed: unknown;
  try {
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
  // As kube: the start key must already be a clean path, so that after the prefix it can range
  // over nothing wider than the prefix (no "..", ".", doubled or trailing slashes).
  const key = start.startsWith('/') ? start : `/${start}`;
  if (cleanPath(key) !== key) throw invalid(start);
  return { startKey: keyPrefix + key.slice(1), revision: BigInt(rv) };
}
