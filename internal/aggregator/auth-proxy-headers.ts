/**
 * The front-proxy headers (client-go's SetAuthProxyHeaders): X-Remote-User, X-Remote-Group once
 * per group, and X-Remote-Extra-<key> once per value, the key %-encoded where it has a byte that
 * is not an HTTP token character (or '%'), so that the receiving request-header authenticator
 * (which unescapes and lower-cases it) reads the key back. Headers of these names the client sent
 * are dropped first.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { UserInfo } from '../request/context.js';

const tokenChars = /^[!#$&'*+\-.^_`|~0-9A-Za-z]$/;

/** Escapes an extra's key for its header name. */
export function escapeExtraKey(key: string): string {
  let out = '';
  for (const b of Buffer.from(key, 'utf8')) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && tokenChars.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Removes any X-Remote-* identity headers from headers (lower-case names) and sets user's. Mutates headers. */
export function setAuthProxyHeaders(headers: OutgoingHttpHeaders, user: UserInfo, uid = true): void {
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'x-remote-user' || lower === 'x-remote-group' || lower === 'x-remote-uid' || lower.startsWith('x-remote-extra-')) delete headers[name];
  }
  headers['X-Remote-User'] = user.name;
  if (uid && user.uid) headers['X-Remote-Uid'] = user.uid;
  if (user.groups.length > 0) headers['X-Remote-Group'] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {})) {
    if (values.length > 0) headers[`X-Remote-Extra-${escapeExtraKey(key)}`] = [...values];
  }
}
