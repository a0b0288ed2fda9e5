/**
 * kube's default field manager name (handlers/rest.go prefixFromUserAgent): the part of the
 * User-Agent before the first "/", without unprintable characters, cut to 128 bytes.
 */

/** validation.FieldManagerMaxLength. */
export const fieldManagerMaxLength = 128;

const printable = /[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

/** "kubectl/v1.32.0 (linux/amd64) kubernetes/abc" -> "kubectl". Never throws. */
export function managerFromUserAgent(userAgent: string): string {
  const prefix = userAgent.split('/')[0] ?? '';
  let out = '';
  let bytes = 0;
  for (const ch of prefix) {
    if (!printable.test(ch)) continue;
    const n = Buffer.byteLength(ch);
    if (bytes + n > fieldManagerMaxLength) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** managerOrUserAgent: the request's fieldManager when set, else the User-Agent's prefix. */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  return fieldManager ? fieldManager : managerFromUserAgent(userAgent ?? '');
}
