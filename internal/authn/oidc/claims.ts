/**
 * From a verified ID token's claims to a user, as kube's OIDC authenticator maps them with the
 * --oidc-* flags: the username claim (with email_verified honoured for "email") and its prefix,
 * the groups claim (a string or a list of strings) and its prefix, then the required claims.
 * Every failure is an AuthenticationError with kube's message.
 */
import type { UserInfo } from '../../request/context.js';
import type { OIDCOptions } from '../../server/options/oidc.js';
import { AuthenticationError } from '../interface.js';

/** Go's json.Unmarshal complaint for a claim of the wrong type. */
function typeError(value: unknown, goType: string): string {
  const t = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value;
  return `json: cannot unmarshal ${t} into Go value of type ${goType}`;
}

function username(claims: Record<string, unknown>, options: OIDCOptions): string {
  const claim = options.usernameClaim;
  if (!(claim in claims)) throw new AuthenticationError(`oidc: parse username claims ${JSON.stringify(claim)}: claim not present`);
  const value = claims[claim];
  // JSON null leaves a Go string empty without error.
  if (value !== null && typeof value !== 'string') throw new AuthenticationError(`oidc: parse username claims ${JSON.stringify(claim)}: ${typeError(value, 'string')}`);
  if (claim === 'email' && 'email_verified' in claims) {
    const verified = claims.email_verified;
    if (verified !== null && typeof verified !== 'boolean') throw new AuthenticationError(`oidc: parse 'email_verified' claim: ${typeError(verified, 'bool')}`);
    if (verified !== true) throw new AuthenticationError('oidc: email not verified');
  }
  return options.usernamePrefix + (value ?? '');
}

function groups(claims: Record<string, unknown>, options: OIDCOptions): string[] {
  const claim = options.groupsClaim;
  if (!claim) return [];
  if (!(claim in claims)) {
    const names = claims._claim_names;
    if (names && typeof names === 'object' && claim in names) {
      // kube would fetch a distributed claim from the claim source; refusing beats dropping groups.
      throw new AuthenticationError(`oidc: could not expand distributed claims: distributed claim ${JSON.stringify(claim)} is not supported`);
    }
    return [];
  }
  const value = claims[claim];
  let list: string[];
  if (value === null) list = [];
  else if (typeof value === 'string') list = [value];
  else if (Array.isArray(value) && value.every((g) => typeof g === 'string')) list = value as string[];
  else throw new AuthenticationError(`oidc: parse groups claim ${JSON.stringify(claim)}: ${typeError(value, 'string')}`);
  return options.groupsPrefix ? list.map((g) => options.groupsPrefix + g) : list;
}

function checkRequired(claims: Record<string, unknown>, required: ReadonlyMap<string, string>): void {
  for (const [claim, want] of required) {
    if (!(claim in claims)) throw new AuthenticationError(`oidc: required claim ${claim} not present in ID token`);
    const got = claims[claim];
    if (got !== null && typeof got !== 'string') throw new AuthenticationError(`oidc: parse claim ${claim}: ${typeError(got, 'string')}`);
    if ((got ?? '') !== want) throw new AuthenticationError(`oidc: required claim ${claim} value does not match. Got = ${got ?? ''}, want = ${want}`);
  }
}

/** The user verified claims name; throws AuthenticationError when they do not make one. */
export function userFromClaims(claims: Record<string, unknown>, options: OIDCOptions): UserInfo {
  const name = username(claims, options);
  const user: UserInfo = { name, groups: groups(claims, options) };
  checkRequired(claims, options.requiredClaims);
  return user;
}
