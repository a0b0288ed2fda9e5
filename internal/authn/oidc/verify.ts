/**
 * ID token verification as go-oidc does it for kube: the cheap claim checks first (audience is the
 * client id; exp required and not past, without leeway; nbf, when present, with a minute of leeway;
 * iat is not checked), then the signing algorithm against --oidc-signing-algs, then the signature
 * with the issuer's key of the token's key id (jsonwebtoken), fetching the key set again when that
 * key id is unknown. Errors carry kube's messages, prefixed as kube prefixes them.
 */
import jwt from 'jsonwebtoken';
import { AuthenticationError } from '../interface.js';
import type { RemoteKeySet, SigningKey } from './key-set.js';

/** Decoded, not yet verified. */
export interface DecodedToken {
  readonly header: { readonly alg?: unknown; readonly kid?: unknown };
  readonly payload: Record<string, unknown>;
}

/** The nbf leeway of the go-oidc version kube uses. */
export const notBeforeLeewayMs = 60_000;

/** A time as Go prints a time.Time in UTC ("2006-01-02 15:04:05 +0000 UTC"). */
export function goTime(ms: number): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '0001-01-01 00:00:00 +0000 UTC';
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} +0000 UTC`;
}

function goQuoteList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

function fail(message: string): never {
  throw new AuthenticationError(`oidc: verify token: ${message}`);
}

/**
 * The claims of a compact JWT, unverified, or undefined when token is not one (three parts, a JSON
 * object in the middle). Cheap: no signature work.
 */
export function untrustedClaims(token: string): Record<string, unknown> | undefined {
  const first = token.indexOf('.');
  const second = first < 0 ? -1 : token.indexOf('.', first + 1);
  if (second < 0 || token.indexOf('.', second + 1) >= 0) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(token.slice(first + 1, second), 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims) ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The JOSE header of a token whose claims parsed; throws kube's malformed-JWT error. */
export function decodeHeader(token: string): DecodedToken['header'] {
  try {
    const header: unknown = JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8'));
    if (typeof header === 'object' && header !== null && !Array.isArray(header)) return header as DecodedToken['header'];
  } catch {
    // Reported below.
  }
  return fail('oidc: malformed jwt: the JOSE header is not a JSON object');
}

/** The claim checks that need no key; throws on the first failure. */
export function checkClaims(payload: Record<string, unknown>, clientID: string, now: number): void {
  const aud = payload.aud;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
  if (!audiences.includes(clientID)) fail(`oidc: expected audience ${JSON.stringify(clientID)} got ${goQuoteList(audiences)}`);
  for (const c of ['exp', 'nbf', 'iat']) {
    if (payload[c] !== undefined && typeof payload[c] !== 'number') fail(`oidc: failed to unmarshal claims: json: cannot unmarshal ${typeof payload[c]} into Go struct field idToken.${c} of type oidc.jsonTime`);
  }
  // A token without exp has Go's zero expiry: expired.
  const expMs = typeof payload.exp === 'number' ? payload.exp * 1000 : Number.NaN;
  if (Number.isNaN(expMs) || expMs < now) fail(`oidc: token is expired (Token Expiry: ${goTime(expMs)})`);
  if (typeof payload.nbf === 'number' && now + notBeforeLeewayMs < payload.nbf * 1000) {
    fail(`oidc: current time ${goTime(now)} before the nbf (not before) time: ${goTime(payload.nbf * 1000)}`);
  }
}

function verifiesWith(token: string, alg: jwt.Algorithm, keys: readonly SigningKey[]): boolean {
  for (const k of keys) {
    try {
      // Times were checked above with kube's leeways; jsonwebtoken checks the signature and key type.
      jwt.verify(token, k.key, { algorithms: [alg], ignoreExpiration: true, ignoreNotBefore: true });
      return true;
    } catch {
      // Another key with the same id (or none) may still verify it.
    }
  }
  return false;
}

/**
 * Checks the algorithm and the signature; synchronous when the cached keys decide, a promise when
 * the key set must be fetched again (key id unknown, or no key id and no cached key verifies).
 */
export function checkSignature(token: string, decoded: DecodedToken, algs: readonly string[], keySet: RemoteKeySet): void | Promise<void> {
  const alg = decoded.header.alg;
  if (typeof alg !== 'string' || !algs.includes(alg)) fail(`oidc: id token signed with unsupported algorithm, expected ${goQuoteList(algs)} got ${JSON.stringify(String(alg))}`);
  const kid = typeof decoded.header.kid === 'string' ? decoded.header.kid : undefined;
  const cached = keySet.candidates(kid);
  if (verifiesWith(token, alg as jwt.Algorithm, cached)) return;
  // A known key id with a bad signature is a bad token: no reason to ask the issuer again.
  if (kid !== undefined && cached.length > 0) fail('failed to verify signature: failed to verify id token signature');
  return keySet.refreshForUnknownKey().then(
    (changed) => {
      if (!changed || !verifiesWith(token, alg as jwt.Algorithm, keySet.candidates(kid))) fail('failed to verify signature: failed to verify id token signature');
    },
    (err: unknown) => fail(`failed to verify signature: fetching keys oidc: get keys failed: ${(err as Error).message}`),
  );
}
