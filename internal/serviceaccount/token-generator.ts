/**
 * The token generator (kube's JWTTokenGenerator): signs claims with the issuer's private key as a
 * compact JWS whose header is {"alg","kid"} (the kid of the key's public half, so verifiers pick
 * the key) and whose payload carries "iss" and every claim with keys sorted, as kube's tokens do.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { algorithmOf, keyIdOf, type SigningAlgorithm } from './keys.js';

/** Signs service account tokens. Safe to share; signing is synchronous. */
export class TokenGenerator {
  /** The algorithm of the signing key. */
  readonly alg: SigningAlgorithm;
  /** The key id tokens carry. */
  readonly kid: string;
  /** The signing key's public half (verifiers and the JWKS need it). */
  readonly publicKey: KeyObject;

  constructor(
    /** The "iss" of every token. */
    readonly issuer: string,
    private readonly privateKey: KeyObject,
  ) {
    const alg = algorithmOf(privateKey);
    if (!alg) throw new Error(`unknown private key type ${privateKey.asymmetricKeyType ?? 'unknown'}, must be RSA or ECDSA (P-256, P-384 or P-521)`);
    this.alg = alg;
    this.publicKey = createPublicKey(privateKey);
    this.kid = keyIdOf(this.publicKey);
  }

  /** A signed token for claims (which must not hold "iss"). */
  generate(claims: Readonly<Record<string, unknown>>): string {
    return jwt.sign(sortKeys({ ...claims, iss: this.issuer }), this.privateKey, {
      algorithm: this.alg,
      keyid: this.kid,
      // kube's header is {"alg","kid"}: no "typ".
      header: { alg: this.alg, kid: this.kid, typ: undefined },
      // jsonwebtoken would add an iat to legacy tokens (which have none) and drop a given one under noTimestamp.
      noTimestamp: !('iat' in claims),
      // The operator's key is what kube accepts, whatever its size.
      allowInsecureKeySizes: true,
    });
  }
}

/** A copy of value with object keys sorted at every level (Go's map order). */
export function sortKeys(value: unknown): any {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
  return out;
}
