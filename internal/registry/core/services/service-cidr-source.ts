/**
 * The CIDRs the cluster IP allocators serve, as kube 1.33's MetaAllocator sees them: the
 * --service-cluster-ip-range CIDRs (the default ServiceCIDR "kubernetes" holds them) plus every
 * other networking.k8s.io ServiceCIDR object. Allocation uses the ready ones (no Ready=False
 * condition, not being deleted); release and range checks use all. The objects are read from
 * storage at most once a second, and again at once when an address names no known CIDR (reads
 * under way are shared).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { SelectionPredicate, Storage } from '../../../storage/interface.js';
import { parseCIDR, type ServiceCIDR } from './service-cidr.js';

const everything: SelectionPredicate = { everything: true, matches: () => true };

/** The CIDRs, split by what they may be used for. */
export interface CIDRSet {
  /** CIDRs new addresses may come from, the flag's first. */
  readonly ready: readonly ServiceCIDR[];
  /** Every known CIDR (ready or not). */
  readonly all: readonly ServiceCIDR[];
}

/** kube's isReady: a ServiceCIDR without a Ready condition counts as ready. */
function isReady(obj: KubeObject): boolean {
  const conditions = ((obj.status as { conditions?: Array<{ type?: string; status?: string }> } | undefined)?.conditions ?? []);
  const ready = conditions.find((c) => c.type === 'Ready');
  return (!ready || ready.status === 'True') && !obj.metadata.deletionTimestamp;
}

/** Reads and caches the ServiceCIDR set. */
export class ServiceCIDRSource {
  private cached: CIDRSet;
  private readAt = 0;
  private reading: Promise<CIDRSet> | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly flagRanges: readonly ServiceCIDR[],
    private readonly keyPrefix = '/servicecidrs',
    private readonly maxAgeMs = 1000,
  ) {
    this.cached = { ready: flagRanges, all: flagRanges };
  }

  /** The current set; fresh forces a read (shared with one already under way). */
  async current(fresh = false): Promise<CIDRSet> {
    if (!fresh && Date.now() - this.readAt < this.maxAgeMs) return this.cached;
    this.reading ??= this.read().finally(() => (this.reading = undefined));
    return await this.reading;
  }

  private async read(): Promise<CIDRSet> {
    try {
      const list = await this.storage.getList(this.keyPrefix, { resourceVersion: '', resourceVersionMatch: '', predicate: everything, recursive: true });
      const ready = [...this.flagRanges];
      const all = [...this.flagRanges];
      const seen = new Set(this.flagRanges.map((c) => c.cidr));
      for (const obj of list.items) {
        for (const text of ((obj.spec as { cidrs?: unknown[] } | undefined)?.cidrs ?? [])) {
          const cidr = parseCIDR(String(text));
          if (!cidr || seen.has(cidr.cidr)) continue;
          // An IPv6 prefix shorter than /64 gets no allocator in kube either.
          if (cidr.family === 6 && cidr.hostBits > 64) continue;
          seen.add(cidr.cidr);
          all.push(cidr);
          if (isReady(obj)) ready.push(cidr);
        }
      }
      this.cached = { ready, all };
      this.readAt = Date.now();
    } catch {
      // Storage trouble: keep allocating from what was known (the flag's CIDRs at least).
    }
    return this.cached;
  }
}
