/**
 * Service CIDRs: IP text <-> numbers (Go's net.IP.String for the canonical form), one parsed CIDR
 * with its usable addresses, and --service-cluster-ip-range as kube-apiserver 1.33 reads it (one
 * CIDR, or two of different families; the same messages for each bad combination and size).
 */
import { isIP } from 'node:net';

/** An IP family as the Service API spells it. */
export type IPFamily = 'IPv4' | 'IPv6';

/** A parsed service CIDR: the usable addresses are first..last. */
export interface ServiceCIDR {
  /** The CIDR with host bits masked, as Go's IPNet.String prints it. */
  readonly cidr: string;
  readonly family: 4 | 6;
  readonly network: bigint;
  /** Number of host bits (32 or 128 minus the prefix length). */
  readonly hostBits: number;
  readonly first: bigint;
  readonly last: bigint;
}

/** The family name of 4 or 6. */
export function familyName(family: 4 | 6): IPFamily {
  return family === 4 ? 'IPv4' : 'IPv6';
}

/** The family of an IP address text, or undefined when it is not one. */
export function familyOfIP(ip: string): IPFamily | undefined {
  const f = isIP(ip);
  return f === 4 ? 'IPv4' : f === 6 ? 'IPv6' : undefined;
}

/** The number an IP address text stands for (the text must be a valid address). */
export function ipToBigInt(ip: string): bigint {
  if (isIP(ip) === 4) return ip.split('.').reduce((acc, p) => (acc << 8n) + BigInt(Number(p)), 0n);
  let text = ip;
  // An IPv4 tail (::ffff:1.2.3.4) is two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail = ''] = text.split('::') as [string?, string?];
  const h = head ? head.split(':') : [];
  const t = text.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = text.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  return groups.reduce((acc, g) => (acc << 16n) + BigInt(parseInt(g || '0', 16)), 0n);
}

/** The text of an address number, as Go's net.IP.String prints it. */
export function bigIntToIp(n: bigint, family: 4 | 6): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.');
  const groups: string[] = [];
  for (let i = 7; i >= 0; i--) groups.push(((n >> BigInt(i * 16)) & 0xffffn).toString(16));
  // Compress the longest run (two or more) of zero groups, as Go does.
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen && j - i > 1) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

/** The canonical text of an IP address (Go's net.IP.String), or undefined when it is not one. */
export function canonicalIP(ip: string): string | undefined {
  const fam = isIP(ip);
  if (fam === 0) return undefined;
  return bigIntToIp(ipToBigInt(ip), fam === 4 ? 4 : 6);
}

/** Parses a CIDR (host bits are masked, as Go's ParseCIDR does); undefined when it is not one. */
export function parseCIDR(text: string): ServiceCIDR | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const addr = text.slice(0, slash);
  const bitsText = text.slice(slash + 1);
  const fam = isIP(addr);
  if (fam === 0 || !/^\d{1,3}$/.test(bitsText)) return undefined;
  const family = fam === 4 ? 4 : 6;
  const max = family === 4 ? 32 : 128;
  const bits = Number(bitsText);
  if (bits > max) return undefined;
  const hostBits = max - bits;
  const network = (ipToBigInt(addr) >> BigInt(hostBits)) << BigInt(hostBits);
  const size = 1n << BigInt(hostBits);
  // The network address is never handed out; for IPv4 neither is the broadcast address.
  const first = hostBits === 0 ? network : network + 1n;
  const last = family === 4 ? (hostBits < 2 ? network + size - 1n : network + size - 2n) : network + size - 1n;
  return { cidr: `${bigIntToIp(network, family)}/${bits}`, family, network, hostBits, first, last };
}

/** True when ip (canonical text) lies inside the CIDR (network and broadcast included). */
export function cidrContains(cidr: ServiceCIDR, ip: string): boolean {
  if ((isIP(ip) === 4 ? 4 : 6) !== cidr.family || isIP(ip) === 0) return false;
  return ipToBigInt(ip) >> BigInt(cidr.hostBits) === cidr.network >> BigInt(cidr.hostBits);
}

/** Host bits beyond which kube refuses a range while it keeps the range bitmap (maxCIDRBits). */
const maxCIDRBits = 20;

function tooLarge(cidr: ServiceCIDR, flag: string): string | undefined {
  const bits = cidr.family === 4 ? 32 : 128;
  return cidr.hostBits > maxCIDRBits ? `specified ${flag} is too large; for ${bits}-bit addresses, the mask must be >= ${bits - maxCIDRBits}` : undefined;
}

/**
 * --service-cluster-ip-range: the primary CIDR and, for a dual-stack cluster, the secondary one.
 * Throws Error with kube-apiserver's message for the first problem found.
 */
export function parseServiceClusterIPRanges(value: string): ServiceCIDR[] {
  const list = value === '' ? ['10.0.0.0/24'] : value.split(',');
  if (list.length > 2) throw new Error('--service-cluster-ip-range must not contain more than two entries');
  const primary = parseCIDR(list[0] as string);
  if (!primary) throw new Error('service-cluster-ip-range[0] is not a valid cidr');
  const size = primary.hostBits >= 16 ? 1 << 16 : 1 << primary.hostBits;
  if (size < 8) {
    throw new Error('error determining service IP ranges for primary service cidr: the service cluster IP range must be at least 8 IP addresses');
  }
  const out = [primary];
  if (list.length > 1) {
    const secondary = parseCIDR(list[1] as string);
    if (!secondary) throw new Error('service-cluster-ip-range[1] is not an ip net');
    out.push(secondary);
  }
  const big = tooLarge(primary, '--service-cluster-ip-range');
  if (big) throw new Error(big);
  const secondary = out[1];
  if (secondary) {
    if (secondary.family === primary.family) throw new Error('--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family');
    const big2 = tooLarge(secondary, '--service-cluster-ip-range[1]');
    if (big2) throw new Error(big2);
  }
  return out;
}

/** The address kube gives the default/kubernetes Service: the first of the primary range. */
export function apiServerServiceIP(ranges: readonly ServiceCIDR[]): string {
  const primary = ranges[0] as ServiceCIDR;
  return bigIntToIp(primary.network + 1n, primary.family);
}

/**
 * kube's calculateRangeOffset for service CIDRs (KEP-3070): the size of the lower band kept for
 * addresses clients ask for by name, min(max(16, size/16), 256), none for ranges of 16 or fewer.
 */
export function rangeOffset(cidr: ServiceCIDR): bigint {
  const size = 1n << BigInt(cidr.hostBits);
  if (size <= 16n) return 0n;
  const offset = size / 16n;
  return offset < 16n ? 16n : offset > 256n ? 256n : offset;
}
