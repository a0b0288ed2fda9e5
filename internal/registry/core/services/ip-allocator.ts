/**
 * ClusterIP allocation from --service-cluster-ip-range, kept in etcd as kube 1.33 keeps it: one
 * networking.k8s.io/v1 IPAddress object per allocated address (key /ipaddresses/<ip>), created
 * (stored as v1beta1, the 1.33 storage version) with a create-only transaction, so two API servers can never hand out the same address.
 */
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { KubeObject } from '../../../../api/meta/types.js';
import { isStorageError } from '../../../storage/errors.js';
import type { Storage } from '../../../storage/interface.js';
import { metaTime } from '../../generic/object-meta.js';

/** Why an address could not be allocated. */
export class IPAllocationError extends Error {
  constructor(
    readonly reason: 'allocated' | 'out-of-range' | 'full' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

/** A parsed service CIDR: the usable addresses are first..last. */
export interface ServiceCIDR {
  readonly cidr: string;
  readonly family: 4 | 6;
  readonly first: bigint;
  readonly last: bigint;
}

function ipToBigInt(ip: string): bigint {
  if (isIP(ip) === 4) return ip.split('.').reduce((acc, p) => (acc << 8n) + BigInt(Number(p)), 0n);
  const [head = '', tail = ''] = ip.split('::') as [string?, string?];
  const h = head ? head.split(':') : [];
  const t = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = ip.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  return groups.reduce((acc, g) => (acc << 16n) + BigInt(parseInt(g || '0', 16)), 0n);
}

function bigIntToIp(n: bigint, family: 4 | 6): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.');
  const groups: string[] = [];
  for (let i = 7; i >= 0; i--) groups.push(((n >> BigInt(i * 16)) & 0xffffn).toString(16));
  // Compress the longest run of zero groups, as Go's net.IP.String does.
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

/** Parses --service-cluster-ip-range; throws Error with a flag-style message. */
export function parseServiceCIDR(cidr: string): ServiceCIDR {
  const [addr = '', bitsText = ''] = cidr.split('/');
  const family = isIP(addr);
  const bits = Number(bitsText);
  const max = family === 4 ? 32 : 128;
  if (family === 0 || !/^\d+$/.test(bitsText) || bits > max) throw new Error(`invalid CIDR address: ${cidr}`);
  const minBits = family === 4 ? 8 : 64;
  if (bits < minBits) throw new Error(`${cidr} is too large: the mask must be /${minBits} or longer`);
  if (max - bits < 2) throw new Error(`${cidr} is too small: it must hold at least two addresses`);
  const hostBits = BigInt(max - bits);
  const network = (ipToBigInt(addr) >> hostBits) << hostBits;
  const size = 1n << hostBits;
  // The network address is never handed out; for IPv4 neither is the broadcast address.
  return { cidr, family: family === 4 ? 4 : 6, first: network + 1n, last: family === 4 ? network + size - 2n : network + size - 1n };
}

/** Who an address is allocated to. */
export interface IPOwner {
  readonly namespace: string;
  readonly name: string;
}

/** Allocates cluster IPs; shares nothing but storage, so any number of servers can use one range. */
export class ClusterIPAllocator {
  readonly range: ServiceCIDR;

  constructor(
    private readonly storage: Storage,
    cidr: string,
    private readonly keyPrefix = '/ipaddresses',
  ) {
    this.range = parseServiceCIDR(cidr);
  }

  /** The first usable address: kube gives it to the default/kubernetes Service. */
  firstAddress(): string {
    return bigIntToIp(this.range.first, this.range.family);
  }

  /** True when ip is a usable address of the range. */
  contains(ip: string): boolean {
    const fam = isIP(ip);
    if (fam !== this.range.family) return false;
    const n = ipToBigInt(ip);
    return n >= this.range.first && n <= this.range.last;
  }

  private ipAddressObject(ip: string, owner: IPOwner): KubeObject {
    return {
      kind: 'IPAddress',
      apiVersion: 'networking.k8s.io/v1beta1',
      metadata: {
        name: ip,
        uid: randomUUID(),
        creationTimestamp: metaTime(),
        labels: {
          'ipaddress.kubernetes.io/ip-family': this.range.family === 4 ? 'IPv4' : 'IPv6',
          'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io',
        },
      },
      spec: { parentRef: { group: '', resource: 'services', namespace: owner.namespace, name: owner.name } },
    };
  }

  private async reserve(ip: string, owner: IPOwner, dryRun: boolean): Promise<boolean> {
    if (dryRun) {
      try {
        await this.storage.get(`${this.keyPrefix}/${ip}`, { resourceVersion: '' });
        return false;
      } catch (err) {
        if (isStorageError(err, 'NotFound')) return true;
        throw err;
      }
    }
    try {
      await this.storage.create(`${this.keyPrefix}/${ip}`, this.ipAddressObject(ip, owner));
      return true;
    } catch (err) {
      if (isStorageError(err, 'KeyExists')) return false;
      throw err;
    }
  }

  /** Allocates the given address; throws IPAllocationError when it is taken or outside the range. */
  async allocate(ip: string, owner: IPOwner, dryRun = false): Promise<string> {
    const canonical = canonicalIP(ip);
    if (!canonical) throw new IPAllocationError('invalid', `failed to allocate IP ${ip}: not a valid IP address`);
    if (!this.contains(canonical)) {
      throw new IPAllocationError(
        'out-of-range',
        `failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.range.cidr}`,
      );
    }
    if (!(await this.reserve(canonical, owner, dryRun))) {
      throw new IPAllocationError('allocated', `failed to allocate IP ${ip}: provided IP is already allocated`);
    }
    return canonical;
  }

  /**
   * Allocates a free address, preferring the upper part of the range (the lower band is kept for
   * addresses clients ask for by name, as kube's allocator does), starting at a random offset.
   */
  async allocateNext(owner: IPOwner, dryRun = false): Promise<string> {
    const size = this.range.last - this.range.first + 1n;
    const lowerBand = size / 16n < 16n ? (size < 16n ? 0n : 16n) : size / 16n > 256n ? 256n : size / 16n;
    const bands: Array<[bigint, bigint]> = [
      [this.range.first + lowerBand, this.range.last],
      [this.range.first, this.range.first + lowerBand - 1n],
    ];
    for (const [lo, hi] of bands) {
      if (hi < lo) continue;
      const span = hi - lo + 1n;
      const start = BigInt(Math.floor(Math.random() * Number(span > 1_000_000n ? 1_000_000n : span)));
      // Probe linearly from a random start; cap the work on huge ranges.
      const tries = span > 4096n ? 4096n : span;
      for (let i = 0n; i < tries; i++) {
        const ip = bigIntToIp(lo + ((start + i) % span), this.range.family);
        if (await this.reserve(ip, owner, dryRun)) return ip;
      }
    }
    throw new IPAllocationError('full', `range is full`);
  }

  /** Frees an address (a missing reservation is fine). */
  async release(ip: string): Promise<void> {
    const canonical = canonicalIP(ip);
    if (!canonical || !this.contains(canonical)) return;
    try {
      await this.storage.delete(`${this.keyPrefix}/${canonical}`, {});
    } catch (err) {
      if (!isStorageError(err, 'NotFound')) throw err;
    }
  }
}
