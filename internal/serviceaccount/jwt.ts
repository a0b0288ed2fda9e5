/**
 * Compact JWS parsing and signature checks for service account tokens. A token is decoded once
 * (header and payload JSON) and its signature checked against the keys its "kid" names (every key
 * when it names none), as kube's JWT authenticator does; only RS256 and ES256/384/512 are accepted.
 */
import { verify as cryptoVerify } from 'node:crypto';
import type { PublicKeyEntry, SigningAlgorithm } from './keys.js';

/** A decoded, not yet verified token. */
export interface DecodedJwt {
  readonly alg: SigningAlgorithm;
  readonly kid: string;
  readonly claims: Readonly<Record<string, unknown>>;
  /** "<header>.<payload>", the signed bytes. */
  readonly signingInput: string;
  readonly signature: Buffer;
}

const segment = /^[A-Za-z0-9_-]+$/;
const algorithms: ReadonlySet<string> = new Set(['RS256', 'ES256', 'ES384', 'ES512']);
const digests: Readonly<Record<SigningAlgorithm, string>> = { RS256: 'sha256', ES256: 'sha256', ES384: 'sha384', ES512: 'sha512' };

function json(seg: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(seg, 'base64url').toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Decodes a compact JWS with an accepted algorithm; undefined when it is not one (no opinion). */
export function decodeJwt(token: string): DecodedJwt | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [h, p, s] = parts as [string, string, string];
  if (!segment.test(h) || !segment.test(p) || !segment.test(s)) return undefined;
  const header = json(h);
  const claims = json(p);
  if (!header || !claims || typeof header.alg !== 'string' || !algorithms.has(header.alg)) return undefined;
  return {
    alg: header.alg as SigningAlgorithm,
    kid: typeof header.kid === 'string' ? header.kid : '',
    claims,
    signingInput: `${h}.${p}`,
    signature: Buffer.from(s, 'base64url'),
  };
}

function signedBy(t: DecodedJwt, entry: PublicKeyEntry): boolean {
  if (entry.alg !== t.alg) return false;
  try {
    const key = t.alg === 'RS256' ? entry.key : { key: entry.key, dsaEncoding: 'ieee-p1363' as const };
    return cryptoVerify(digests[t.alg], Buffer.from(t.signingInput), key, t.signature);
  } catch {
    return false;
  }
}

/**
 * Checks a decoded token's signature against keys; throws kube's messages: "invalid signature, no
 * keys found" when its kid names no key, the go-jose verification error otherwise.
 */
export function verifySignature(t: DecodedJwt, keys: readonly PublicKeyEntry[]): void {
  const candidates = t.kid ? keys.filter((k) => k.kid === t.kid) : keys;
  if (candidates.length === 0) throw new Error('invalid signature, no keys found');
  for (const k of candidates) if (signedBy(t, k)) return;
  const errors = candidates.map(() => 'go-jose/go-jose: error in cryptographic primitive');
  throw new Error(errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`);
}
