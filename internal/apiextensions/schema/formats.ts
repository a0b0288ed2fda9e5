/**
 * The string formats CRD schemas may use (kube-openapi's strfmt registry as apiextensions-apiserver
 * keeps it): each checker says whether a string is valid. A format not listed here is ignored, as
 * kube strips unsupported formats before validating.
 */
import { base64CorruptOffset } from '../../validation/schema/go-base64.js';

type Checker = (s: string) => boolean;

const uuidRe = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid3Re = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid4Re = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const uuid5Re = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const hostnameRe =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z0-9\-\p{L}]){2,63})$/u;
const creditCardRe =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/;
const ssnRe = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const hexColorRe = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const byteRe = '(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])';
const rgbColorRe = new RegExp(`^rgb\\(\\s*${byteRe}\\s*,\\s*${byteRe}\\s*,\\s*${byteRe}\\s*\\)$`);
// strfmt checks the time part with this pattern after splitting at "t" (its "." is any character).
const timeOfDayRe = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const macRes = [
  /^[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(\1[0-9a-fA-F]{2}){4}$/,
  /^[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(\1[0-9a-fA-F]{2}){6}$/,
  /^[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(\1[0-9a-fA-F]{2}){18}$/,
  /^[0-9a-fA-F]{4}(\.[0-9a-fA-F]{4}){2}$/,
  /^[0-9a-fA-F]{4}(\.[0-9a-fA-F]{4}){3}$/,
  /^[0-9a-fA-F]{4}(\.[0-9a-fA-F]{4}){9}$/,
];

/** netutils.ParseIPSloppy for IPv4: four decimal parts 0-255, leading zeros allowed. */
function isIPv4Text(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) <= 255);
}

/** net.ParseIP for IPv6 text (with an optional trailing dotted IPv4). */
function isIPv6Text(s: string): boolean {
  if (!s.includes(':')) return false;
  let text = s;
  let groupsForV4 = 0;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIPv4Text(tail)) return false;
    text = `${text.slice(0, lastColon + 1)}0`;
    groupsForV4 = 1;
  }
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = (h: string): string[] | undefined => {
    if (h === '') return [];
    const g = h.split(':');
    return g.every((x) => /^[0-9a-fA-F]{1,4}$/.test(x)) ? g : undefined;
  };
  const a = groups(halves[0] as string);
  if (!a) return false;
  if (halves.length === 1) return a.length + groupsForV4 === 8;
  const b = groups(halves[1] as string);
  if (!b) return false;
  return a.length + b.length + groupsForV4 <= 7;
}

function isIP(s: string): boolean {
  return isIPv4Text(s) || isIPv6Text(s);
}

function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^[0-9]{1,3}$/.test(bits)) return false;
  if (isIPv4Text(addr)) return Number(bits) <= 32;
  return isIPv6Text(addr) && Number(bits) <= 128;
}

function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
  return day <= days;
}

function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0] as string)) return false;
  const m = timeOfDayRe.exec(parts[1] as string);
  if (!m) return false;
  return (m[1] as string) <= '23' && (m[2] as string) <= '59' && (m[3] as string) <= '59';
}

const goDurationRe = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$|^[-+]?0$/;
const durationUnits: ReadonlyArray<readonly string[]> = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
];

/** strfmt.ParseDuration: Go's time.ParseDuration, else "<n> <unit>" groups with long unit names. */
function isDuration(s: string): boolean {
  if (goDurationRe.test(s)) return true;
  for (const m of s.matchAll(/(\d+)\s*([A-Za-zµ]+)/g)) {
    const unit = (m[2] as string).trim().toLowerCase();
    for (const variants of durationUnits) {
      const last = variants.length - 1;
      if (variants.some((v, i) => (i === last && unit.startsWith(v)) || v === unit)) return true;
    }
  }
  return false;
}

function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

function isISBN10(s: string): boolean {
  const t = s.replace(/[\s-]+/g, '');
  if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(t)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * (t.charCodeAt(i) - 48);
  sum += t[9] === 'X' ? 100 : 10 * (t.charCodeAt(9) - 48);
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const t = s.replace(/[\s-]+/g, '');
  if (!/^(?:[0-9]{13})$/.test(t)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (t.charCodeAt(i) - 48) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === t.charCodeAt(12) - 48;
}

function isURI(s: string): boolean {
  // url.ParseRequestURI: an absolute URI with a hierarchical part, or an absolute path; no control bytes.
  if (/[\x00-\x1f\x7f]/.test(s)) return false;
  if (s.startsWith('/')) return true;
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:(.*)$/s.exec(s);
  return m !== null && (m[1] as string).startsWith('/');
}

function isEmail(s: string): boolean {
  // net/mail.ParseAddress, reduced: "local@domain" or "Name <local@domain>".
  const addr = /^[^<>]*<([^<>]+)>\s*$/.exec(s)?.[1] ?? s.trim();
  return /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/.test(addr);
}

/** The checkers by format name (kube's supportedFormats plus "date-time" as strfmt accepts it). */
export const formatCheckers: ReadonlyMap<string, Checker> = new Map<string, Checker>([
  ['bsonobjectid', (s) => /^[0-9a-fA-F]{24}$/.test(s)],
  ['uri', isURI],
  ['email', isEmail],
  ['hostname', (s) => hostnameRe.test(s) && s.length <= 255 && s.split('.').every((p) => p.length <= 63)],
  ['ipv4', (s) => isIP(s) && s.includes('.')],
  ['ipv6', (s) => isIP(s) && s.includes(':')],
  ['cidr', isCIDR],
  ['mac', (s) => macRes.some((re) => re.test(s))],
  ['uuid', (s) => uuidRe.test(s)],
  ['uuid3', (s) => uuid3Re.test(s)],
  ['uuid4', (s) => uuid4Re.test(s)],
  ['uuid5', (s) => uuid5Re.test(s)],
  ['isbn', (s) => isISBN10(s) || isISBN13(s)],
  ['isbn10', isISBN10],
  ['isbn13', isISBN13],
  ['creditcard', (s) => {
    const digits = s.replace(/[^0-9]+/g, '');
    return creditCardRe.test(digits) && luhn(digits);
  }],
  ['ssn', (s) => ssnRe.test(s)],
  ['hexcolor', (s) => hexColorRe.test(s)],
  ['rgbcolor', (s) => rgbColorRe.test(s)],
  ['byte', (s) => base64CorruptOffset(s) < 0],
  ['password', () => true],
  ['date', isDate],
  ['datetime', isDateTime],
  ['date-time', isDateTime],
  ['duration', isDuration],
]);
