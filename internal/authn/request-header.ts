/**
 * The front-proxy (request-header) authenticator (--requestheader-*): a request whose connection's
 * client certificate chains to --requestheader-client-ca-file, and whose CN is in
 * --requestheader-allowed-names (empty: any), is made on behalf of the user its headers name: the
 * first non-empty username header, the first non-empty UID header, every value of the group
 * headers, and extras from headers with the extra prefixes (the rest of the name lower-cased and
 * %-unescaped). The headers are removed once read. A certificate from another CA, or a CN not
 * allowed, is an error (the next authenticator may still accept the certificate); no username
 * header is no opinion.
 */
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../request/context.js';
import type { RequestHeaderOptions } from '../server/options/authentication.js';
import type { CABundle } from './ca-bundle.js';
import { ConnectionVerifier } from './connection-verifier.js';
import { AuthenticationError, type AuthenticationResult, type Authenticator } from './interface.js';

type Headers = Record<string, string[] | undefined>;

/** The first value of the first of names that has a non-empty first value (Go's Header.Get order). */
function firstValue(h: Headers, names: readonly string[]): string {
  for (const n of names) {
    const v = h[n]?.[0];
    if (v) return v;
  }
  return '';
}

/** Go's url.PathUnescape; a malformed escape leaves the key as it was. */
export function unescapeExtraKey(key: string): string {
  if (!key.includes('%')) return key;
  if (/%(?![0-9a-fA-F]{2})/.test(key)) return key;
  const bytes: number[] = [];
  for (let i = 0; i < key.length; i++) {
    if (key[i] === '%') {
      bytes.push(parseInt(key.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      for (const b of Buffer.from(key[i] as string)) bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Authenticates requests a trusted front proxy makes for its users. Answers synchronously. */
export class RequestHeaderAuthenticator implements Authenticator {
  private readonly verifier: ConnectionVerifier<true>;
  private readonly usernameHeaders: readonly string[];
  private readonly uidHeaders: readonly string[];
  private readonly groupHeaders: readonly string[];
  private readonly extraPrefixes: readonly string[];

  constructor(bundle: CABundle, options: RequestHeaderOptions) {
    const allowed = new Set(options.allowedNames);
    this.verifier = new ConnectionVerifier(bundle, (peer) => {
      if (allowed.size > 0 && !allowed.has(peer.commonName)) throw new AuthenticationError(`x509: subject with cn=${peer.commonName} is not in the allowed list`);
      return true;
    });
    const lower = (l: readonly string[]): string[] => l.map((h) => h.toLowerCase());
    this.usernameHeaders = lower(options.usernameHeaders);
    this.uidHeaders = lower(options.uidHeaders);
    this.groupHeaders = lower(options.groupHeaders);
    this.extraPrefixes = lower(options.extraHeaderPrefixes);
  }

  authenticate(req: IncomingMessage): AuthenticationResult | undefined {
    if (this.verifier.check(req) === undefined) return undefined;
    const h = req.headersDistinct as Headers;
    const name = firstValue(h, this.usernameHeaders);
    if (!name) return undefined;
    const uid = firstValue(h, this.uidHeaders);
    const groups: string[] = [];
    for (const n of this.groupHeaders) for (const v of h[n] ?? []) if (v) groups.push(v);
    const extra: Record<string, string[]> = {};
    // Prefixes first, so each key's values keep the prefixes' order.
    for (const prefix of this.extraPrefixes) {
      for (const [header, values] of Object.entries(h)) {
        if (!header.startsWith(prefix) || !values) continue;
        (extra[unescapeExtraKey(header.slice(prefix.length))] ??= []).push(...values);
      }
    }
    this.clear(req);
    const user: UserInfo = { name, groups, ...(uid ? { uid } : {}), ...(Object.keys(extra).length > 0 ? { extra } : {}) };
    return { user };
  }

  /** Removes the identity headers, so that nothing after authentication reads or forwards them. */
  private clear(req: IncomingMessage): void {
    const named = new Set([...this.usernameHeaders, ...this.uidHeaders, ...this.groupHeaders]);
    const consumed = (header: string): boolean => named.has(header) || this.extraPrefixes.some((p) => header.startsWith(p));
    for (const view of [req.headers, req.headersDistinct] as Array<Record<string, unknown>>) {
      for (const k of Object.keys(view)) if (consumed(k)) delete view[k];
    }
    const raw: string[] = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      if (!consumed((req.rawHeaders[i] as string).toLowerCase())) raw.push(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
    }
    req.rawHeaders = raw;
  }
}
