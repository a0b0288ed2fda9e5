/**
 * IP and CIDR syntax as core validation checks it (IsValidIP, IsValidCIDR, ValidateNonSpecialIP),
 * with kube's texts. Parsing is node's net.isIP, which like Go rejects leading zeros in IPv4.
 */
import { isIP } from 'node:net';
import { invalid, type FieldError } from '../../../validation/field-error.js';

/** IsValidIP: one Invalid error when value is not an IPv4 or IPv6 address. */
export function validateIP(path: string, value: string): FieldError[] {
  return isIP(value) === 0 ? [invalid(path, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')] : [];
}

/** True when value is a CIDR such as 10.0.0.0/24 or fd00::/64. */
export function isCIDR(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const ip = value.slice(0, slash);
  const bits = value.slice(slash + 1);
  const family = isIP(ip);
  if (family === 0 || !/^[0-9]{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** IsValidCIDR: one Invalid error when value is not a CIDR. */
export function validateCIDR(path: string, value: string): FieldError[] {
  return isCIDR(value) ? [] : [invalid(path, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')];
}

/** The IP family of value: 4, 6, or 0 when it is not an IP (or CIDR when cidr is true). */
export function ipFamily(value: string, cidr = false): 4 | 6 | 0 {
  const v = cidr ? value.slice(0, Math.max(0, value.indexOf('/'))) : value;
  const f = isIP(v);
  return f === 4 || f === 6 ? f : 0;
}

/** ValidateNonSpecialIP: not unspecified, loopback, or link-local (endpoint addresses). */
export function validateNonSpecialIP(path: string, value: string): FieldError[] {
  const family = isIP(value);
  if (family === 0) return [invalid(path, value, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  const lower = value.toLowerCase();
  if (family === 4) {
    const [a, b, c] = value.split('.').map(Number) as [number, number, number];
    if (value === '0.0.0.0') errs.push(invalid(path, value, `may not be unspecified (${value})`));
    if (a === 127) errs.push(invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
    if (a === 169 && b === 254) errs.push(invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
    if (a === 224 && b === 0 && c === 0) {
      errs.push(invalid(path, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
    }
    return errs;
  }
  const expanded = expandIPv6(lower);
  if (/^0+$/.test(expanded)) errs.push(invalid(path, value, `may not be unspecified (${value})`));
  if (expanded === '0'.repeat(31) + '1') errs.push(invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (/^fe[89ab]/.test(expanded)) errs.push(invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (/^ff02/.test(expanded)) errs.push(invalid(path, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

/** The 32 hex digits of an IPv6 address (an embedded IPv4 tail included). */
function expandIPv6(addr: string): string {
  let a = addr;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [, p, q, r, s] = v4.map(Number) as [number, number, number, number, number];
    a = a.slice(0, v4.index) + `${((p << 8) | q).toString(16)}:${((r << 8) | s).toString(16)}`;
  }
  const [head = '', tail] = a.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const missing = 8 - h.length - t.length;
  const groups = tail === undefined ? h : [...h, ...Array<string>(missing).fill('0'), ...t];
  return groups.map((g) => g.padStart(4, '0')).join('');
}
