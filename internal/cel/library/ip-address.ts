/**
 * IP addresses and prefixes as Kubernetes' ip and cidr libraries parse them (Go's netip): dotted
 * IPv4 without leading zeros, IPv6 without zones, IPv4-mapped IPv6 refused; addresses held as 4 or
 * 16 bytes and printed canonically (RFC 5952 for IPv6).
 */

/** A parsed address. */
export interface IpAddress {
  readonly bytes: Uint8Array;
  readonly family: 4 | 6;
}

function parseV4(s: string): Uint8Array | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i]!;
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p) || Number(p) > 255) return undefined;
    out[i] = Number(p);
  }
  return out;
}

function parseV6(s: string): Uint8Array | undefined {
  if (s.includes('%')) return undefined;
  let head = s;
  let v4tail: Uint8Array | undefined;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    v4tail = parseV4(s.slice(lastColon + 1));
    if (!v4tail) return undefined;
    head = s.slice(0, lastColon + 1) + '0:0';
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  const total = left.length + right.length;
  if (halves.length === 1 ? total !== 8 : total > 7) return undefined;
  const all = [...left, ...new Array(8 - total).fill('0'), ...right];
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(all[i]!)) return undefined;
    const n = parseInt(all[i]!, 16);
    out[i * 2] = n >> 8;
    out[i * 2 + 1] = n & 0xff;
  }
  if (v4tail) out.set(v4tail, 12);
  return out;
}

/** Parses an address; throws kube's message ("IP Address ... parse error during conversion from string: ..."). */
export function parseIp(s: string): IpAddress {
  if (s.includes(':')) {
    const bytes = parseV6(s);
    if (!bytes) throw new Error(`IP Address ${JSON.stringify(s)} parse error during conversion from string: ParseAddr(${JSON.stringify(s)}): invalid IP address`);
    if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
      throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`);
    }
    return { bytes, family: 6 };
  }
  const bytes = parseV4(s);
  if (!bytes) throw new Error(`IP Address ${JSON.stringify(s)} parse error during conversion from string: ParseAddr(${JSON.stringify(s)}): invalid IP address`);
  return { bytes, family: 4 };
}

/** The canonical text of an address. */
export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return [...ip.bytes].join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((ip.bytes[i]! << 8) | ip.bytes[i + 1]!);
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/** The first bits of an address kept, the rest zeroed. */
export function maskIp(ip: IpAddress, bits: number): IpAddress {
  const out = new Uint8Array(ip.bytes);
  for (let i = 0; i < out.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    out[i]! &= (0xff << (8 - keep)) & 0xff;
  }
  return { bytes: out, family: ip.family };
}

/** A parsed prefix: its address as written and its length. */
export interface IpPrefix {
  readonly ip: IpAddress;
  readonly bits: number;
}

/** Parses "addr/bits"; throws kube's message. */
export function parseCidr(s: string): IpPrefix {
  const slash = s.indexOf('/');
  const fail = () => new Error(`network address parse error during conversion from string: network address ${JSON.stringify(s)} is not a valid CIDR`);
  if (slash < 0) throw fail();
  let ip: IpAddress;
  try {
    ip = parseIp(s.slice(0, slash));
  } catch {
    throw fail();
  }
  const bitsText = s.slice(slash + 1);
  if (!/^(0|[1-9][0-9]*)$/.test(bitsText)) throw fail();
  const bits = Number(bitsText);
  if (bits > (ip.family === 4 ? 32 : 128)) throw fail();
  return { ip, bits };
}

/** Whether prefix contains ip. */
export function prefixContains(prefix: IpPrefix, ip: IpAddress): boolean {
  if (prefix.ip.family !== ip.family) return false;
  const a = maskIp(prefix.ip, prefix.bits).bytes;
  const b = maskIp(ip, prefix.bits).bytes;
  return a.every((x, i) => x === b[i]);
}

/** Go's netip classifications. */
export const ipClass = {
  unspecified: (ip: IpAddress) => ip.bytes.every((b) => b === 0),
  loopback: (ip: IpAddress) => (ip.family === 4 ? ip.bytes[0] === 127 : ip.bytes.slice(0, 15).every((b) => b === 0) && ip.bytes[15] === 1),
  linkLocalMulticast: (ip: IpAddress) => (ip.family === 4 ? ip.bytes[0] === 224 && ip.bytes[1] === 0 && ip.bytes[2] === 0 : ip.bytes[0] === 0xff && (ip.bytes[1]! & 0x0f) === 0x02),
  linkLocalUnicast: (ip: IpAddress) => (ip.family === 4 ? ip.bytes[0] === 169 && ip.bytes[1] === 254 : ip.bytes[0] === 0xfe && (ip.bytes[1]! & 0xc0) === 0x80),
  multicast: (ip: IpAddress) => (ip.family === 4 ? (ip.bytes[0]! & 0xf0) === 0xe0 : ip.bytes[0] === 0xff),
  globalUnicast(ip: IpAddress): boolean {
    if (ip.family === 4 && ip.bytes.every((b) => b === 255)) return false;
    return !this.unspecified(ip) && !this.loopback(ip) && !this.multicast(ip) && !this.linkLocalUnicast(ip);
  },
};
