/**
 * Where quota admission reads and writes ResourceQuotas (kube's quotaAccessor): reads come from the
 * shared informer, indexed by namespace; a namespace the informer shows none for is listed live at
 * most once per 30 s (the informer may lag a quota created moments ago); each status this server
 * wrote is kept until the informer shows it or something newer, so back-to-back evaluations start
 * from the latest usage instead of losing a compare-and-swap. Writes go to resourcequotas/status
 * carrying the resourceVersion read, so a concurrent change makes them fail with a Conflict.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { objectKey, type Informer } from '../../../controllers/informer.js';
import type { ResourceClient } from '../../../controllers/resource-client.js';
import type { QuotaObject } from '../../../quota/interface.js';
import { parseResourceVersion } from '../../../storage/etcd3/revision.js';
import { Lru } from '../../../collections/lru.js';

const liveTTLMs = 30_000;
const cacheSize = 100;

interface LiveEntry {
  readonly expiry: number;
  readonly items: readonly QuotaObject[];
}

/** Reads the quotas of a namespace and writes their status. */
export class QuotaAccessor {
  private readonly byNamespace = new Map<string, Map<string, QuotaObject>>();
  private readonly live = new Lru<LiveEntry>(cacheSize);
  private readonly liveInFlight = new Map<string, Promise<LiveEntry>>();
  private readonly updated = new Lru<QuotaObject>(cacheSize);

  constructor(
    private readonly informer: Informer,
    private readonly quotas: ResourceClient,
    private readonly writeStatus: (quota: QuotaObject) => Promise<QuotaObject>,
    private readonly now: () => number = Date.now,
  ) {
    informer.addHandlers({
      added: (obj) => this.index(obj),
      updated: (obj) => this.index(obj),
      deleted: (obj) => {
        const ns = obj.metadata.namespace ?? '';
        const m = this.byNamespace.get(ns);
        m?.delete(obj.metadata.name ?? '');
        if (m && m.size === 0) this.byNamespace.delete(ns);
      },
    });
  }

  private index(obj: KubeObject): void {
    const ns = obj.metadata.namespace ?? '';
    let m = this.byNamespace.get(ns);
    if (!m) this.byNamespace.set(ns, (m = new Map()));
    m.set(obj.metadata.name ?? '', obj as QuotaObject);
  }

  /** True when it is already known, without waiting, that namespace has no quota (the common case). */
  knownEmpty(namespace: string): boolean {
    if (!this.informer.hasSynced() || this.byNamespace.has(namespace)) return false;
    const entry = this.live.get(namespace);
    return entry !== undefined && entry.expiry >= this.now() && entry.items.length === 0;
  }

  /** The quotas of namespace, each the newest this server knows of. */
  async getQuotas(namespace: string): Promise<QuotaObject[]> {
    let items: readonly QuotaObject[] = this.informer.hasSynced() ? [...(this.byNamespace.get(namespace)?.values() ?? [])] : [];
    if (items.length === 0) items = (await this.liveLookup(namespace)).items;
    return items.map((q) => this.checkCache(q));
  }

  /** The quotas of namespace read from storage now (after a lost compare-and-swap). */
  async getQuotasLive(namespace: string): Promise<QuotaObject[]> {
    return ((await this.quotas.list(namespace)) as QuotaObject[]).map((q) => this.checkCache(q));
  }

  /** Writes quota's status (compare-and-swap on its resourceVersion) and remembers the result. */
  async updateQuotaStatus(quota: QuotaObject): Promise<void> {
    const stored = await this.writeStatus(quota);
    this.updated.set(objectKey(stored), stored);
  }

  private liveLookup(namespace: string): Promise<LiveEntry> {
    const cached = this.live.get(namespace);
    if (cached && cached.expiry >= this.now()) return Promise.resolve(cached);
    let p = this.liveInFlight.get(namespace);
    if (!p) {
      p = this.quotas
        .list(namespace)
        .then((items) => {
          const entry = { expiry: this.now() + liveTTLMs, items: items as QuotaObject[] };
          this.live.set(namespace, entry);
          return entry;
        })
        .finally(() => this.liveInFlight.delete(namespace));
      this.liveInFlight.set(namespace, p);
    }
    return p;
  }

  /** The newer of q and what this server last wrote for it (resourceVersions of one key grow). */
  private checkCache(q: QuotaObject): QuotaObject {
    const key = objectKey(q);
    const mine = this.updated.get(key);
    if (!mine) return q;
    if (parseResourceVersion(q.metadata.resourceVersion ?? '') >= parseResourceVersion(mine.metadata.resourceVersion ?? '')) {
      this.updated.delete(key);
      return q;
    }
    return mine;
  }
}
