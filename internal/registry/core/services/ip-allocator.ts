/**
 * ClusterIP allocation for one IP family, kept in etcd as kube 1.33 keeps it: one
 * networking.k8s.io IPAddress object per allocated address (key /ipaddresses/<ip>, stored as
 * v1beta1, the 1.33 storage version), created with a create-only transaction, so two API servers
 * can never hand out the same address. Like kube's MetaAllocator, an allocator serves every CIDR
 * of its family: the --service-cluster-ip-range entry and the ServiceCIDR objects.
 */
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../../api/meta/types.js';
import { isStorageError } from '../../../storage/errors.js';
import type { Storage } from '../../../storage/interface.js';
import { metaTime } from '../../generic/object-meta.js';
import { bigIntToIp, canonicalIP, cidrContains, familyName, ipToBigInt, rangeOffset, type IPFamily, type ServiceCIDR } from './service-cidr.js';
import { ServiceCIDRSource } from './service-cidr-source.js';

export { canonicalIP } from './service-cidr.js';

/** Why an address could not be allocated; message is kube's error text. */
export class IPAllocationError extends Error {
  constructor(
    readonly reason: 'allocated' | 'not-in-range' | 'mismatched-network' | 'full',
    message: string,
  ) {
    super(message);
  }
}

/** Who an address is allocated to. */
export interface IPOwner {
  readonly namespace: string;
  readonly name: string;
}

/** The label keys kube's allocator sets on its IPAddress objects. */
export const ipFamilyLabel = 'ipaddress.kubernetes.io/ip-family';
export const managedByLabel = 'ipaddress.kubernetes.io/managed-by';
/** kube's ipallocator.ControllerName: the managed-by value of allocated addresses. */
export const ipAllocatorName = 'ipallocator.k8s.io';

/** The IPAddress object kube's allocator creates for ip, owned by a Service. */
export function ipAddressObject(ip: string, family: IPFamily, owner: IPOwner): KubeObject {
  return {
    kind: 'IPAddress',
    apiVersion: 'networking.k8s.io/v1beta1',
    metadata: {
      name: ip,
      uid: randomUUID(),
      creationTimestamp: metaTime(),
      labels: { [ipFamilyLabel]: family, [managedByLabel]: ipAllocatorName },
    },
    spec: { parentRef: { group: '', resource: 'services', namespace: owner.namespace, name: owner.name } },
  };
}

/** Allocates cluster IPs of one family; shares nothing but storage, so any number of servers can use it. */
export class ClusterIPAllocator {
  constructor(
    private readonly storage: Storage,
    readonly family: IPFamily,
    private readonly source: ServiceCIDRSource,
    private readonly keyPrefix = '/ipaddresses',
  ) {}

  private mine(cidrs: readonly ServiceCIDR[]): ServiceCIDR[] {
    return cidrs.filter((c) => familyName(c.family) === this.family);
  }

  /** The CIDR (ready ones, or all) whose network holds ip, reading the ServiceCIDRs again if none does. */
  private async cidrOf(ip: string, which: 'ready' | 'all'): Promise<ServiceCIDR | undefined> {
    const known = this.mine((await this.source.current())[which]).find((c) => cidrContains(c, ip));
    return known ?? this.mine((await this.source.current(true))[which]).find((c) => cidrContains(c, ip));
  }

  private key(ip: string): string {
    return `${this.keyPrefix}/${ip}`;
  }

  private async reserve(ip: string, owner: IPOwner): Promise<boolean> {
    try {
      await this.storage.create(this.key(ip), ipAddressObject(ip, this.family, owner));
      return true;
    } catch (err) {
      if (isStorageError(err, 'KeyExists')) return false;
      throw err;
    }
  }

  /**
   * Allocates the given address (canonical text returned); throws IPAllocationError when no CIDR
   * holds it, it is a CIDR's network (or IPv4 broadcast) address, or it is taken. A dry run checks
   * the range only, as kube's does.
   */
  async allocate(ip: string, owner: IPOwner, dryRun = false): Promise<string> {
    const canonical = canonicalIP(ip) ?? ip;
    const cidr = await this.cidrOf(canonical, 'ready');
    if (!cidr) throw new IPAllocationError('mismatched-network', 'the provided network does not match the current range');
    const n = ipToBigInt(canonical);
    if (n < cidr.first || n > cidr.last) {
      throw new IPAllocationError('not-in-range', `the provided IP (${canonical}) is not in the valid range. The range of valid IPs is ${cidr.cidr}`);
    }
    if (dryRun) return canonical;
    if (!(await this.reserve(canonical, owner))) throw new IPAllocationError('allocated', 'provided IP is already allocated');
    return canonical;
  }

  /**
   * Allocates a free address: in each CIDR the upper band first, then the lower band kept for
   * addresses asked for by name (KEP-3070), each probed from a random start. A dry run answers the
   * CIDR's network address without looking, as kube's does.
   */
  async allocateNext(owner: IPOwner, dryRun = false): Promise<string> {
    const cidrs = this.mine((await this.source.current()).ready);
    if (dryRun) {
      const cidr = cidrs[0];
      if (cidr) return bigIntToIp(cidr.network, cidr.family);
    }
    for (const cidr of cidrs) {
      const offset = rangeOffset(cidr);
      const bands: Array<[bigint, bigint]> = [
        [cidr.first + offset, cidr.last],
        [cidr.first, cidr.first + offset - 1n],
      ];
      for (const [lo, hi] of bands) {
        if (hi < lo) continue;
        const span = hi - lo + 1n;
        const start = BigInt(Math.floor(Math.random() * Number(span > 1_000_000_000n ? 1_000_000_000n : span)));
        // Each probe is an etcd transaction: bound the work on huge, nearly full ranges.
        const tries = span > 4096n ? 4096n : span;
        for (let i = 0n; i < tries; i++) {
          const ip = bigIntToIp(lo + ((start + i) % span), cidr.family);
          if (await this.reserve(ip, owner)) return ip;
        }
      }
    }
    throw new IPAllocationError('full', 'range is full');
  }

  /** Frees an address (a missing reservation, or one outside this family's CIDRs, is fine). */
  async release(ip: string): Promise<void> {
    const canonical = canonicalIP(ip);
    if (!canonical || !(await this.cidrOf(canonical, 'all'))) return;
    try {
      await this.storage.delete(this.key(canonical), {});
    } catch (err) {
      if (!isStorageError(err, 'NotFound')) throw err;
    }
  }
}

/** The allocators of a cluster, one per configured family, and the primary family. */
export interface ServiceIPAllocators {
  readonly byFamily: ReadonlyMap<IPFamily, ClusterIPAllocator>;
  /** The family of --service-cluster-ip-range[0]. */
  readonly defaultFamily: IPFamily;
}

/** Builds one allocator per family of ranges (as parsed by parseServiceClusterIPRanges), each also serving the ServiceCIDR objects of its family. */
export function serviceIPAllocators(storage: Storage, ranges: readonly ServiceCIDR[], keyPrefix = '/ipaddresses'): ServiceIPAllocators {
  const source = new ServiceCIDRSource(storage, ranges);
  const byFamily = new Map<IPFamily, ClusterIPAllocator>();
  for (const r of ranges) byFamily.set(familyName(r.family), new ClusterIPAllocator(storage, familyName(r.family), source, keyPrefix));
  return { byFamily, defaultFamily: familyName((ranges[0] as ServiceCIDR).family) };
}
