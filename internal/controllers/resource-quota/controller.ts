/**
 * The resource quota controller (kube-controller-manager's resourcequota controller, run inside
 * the API server): keeps each ResourceQuota's status.hard equal to spec.hard and status.used equal
 * to what the objects of its namespace use. A quota is recounted when it is created or its
 * spec.hard changes, when an object it counts is deleted (or updated so that it stops counting),
 * and every resync period (kube's --resource-quota-sync-period default, 5m). Informers of counted
 * resources start only when some quota needs them. Status writes carry the resourceVersion read,
 * so a write racing quota admission fails and the quota is recounted.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { QuotaEvaluator, QuotaObject } from '../../quota/interface.js';
import { parseObjectCountName } from '../../quota/object-count.js';
import { EvaluatorRegistry, isIgnoredResource } from '../../quota/registry.js';
import { equals, mask, resourceListFromJSON, resourceListToJSON } from '../../quota/resource-list.js';
import type { QuotaStatusWriter } from '../../quota/status-writer.js';
import type { Logger } from '../../observability/logging.js';
import { objectKey, type Informer } from '../informer.js';
import type { SharedInformers } from '../shared-informers.js';
import { calculateUsage } from './calculate-usage.js';
import { updateNeedsReplenish } from './update-filter.js';
import { WorkQueue } from './work-queue.js';

/** A counted resource's informer and its objects by namespace. */
interface Monitor {
  readonly informer: Informer;
  readonly byNamespace: Map<string, Map<string, KubeObject>>;
}

/** kube's --resource-quota-sync-period default. */
export const defaultQuotaResyncMs = 5 * 60_000;

/** What the controller runs on. */
export interface ResourceQuotaControllerOptions {
  readonly informers: SharedInformers;
  readonly writeStatus: QuotaStatusWriter;
  readonly log: Logger;
  /** Full recount of every quota this often (default 5 minutes). */
  readonly resyncMs?: number;
  /** Quotas synced at once (kube's --concurrent-resource-quota-syncs default, 5). */
  readonly workers?: number;
  readonly now?: () => number;
}

/** The controller; start() it once. */
export class ResourceQuotaController {
  private readonly registry: EvaluatorRegistry;
  private readonly queue: WorkQueue;
  private readonly monitors = new Map<string, Monitor>();
  private quotas!: Informer;
  private resyncTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ResourceQuotaControllerOptions) {
    this.registry = new EvaluatorRegistry(options.now);
    this.queue = new WorkQueue(
      (key) => this.sync(key),
      (key, err) => {
        // Losing a compare-and-swap to quota admission is routine: recount and try again.
        if (hasReason(err, 'Conflict')) options.log.v(2, `resource quota ${key}: ${(err as Error).message}; retrying`);
        else options.log.warn(`resource quota ${key}: ${(err as Error).message}; retrying`);
      },
      options.workers ?? 5,
    );
  }

  /** Starts following quotas; returns at once. */
  start(): void {
    this.quotas = this.options.informers.get('', 'resourcequotas');
    this.quotas.addHandlers({
      added: (q) => this.queue.add(objectKey(q)),
      updated: (q, old) => {
        if (!equals(resourceListFromJSON((q as QuotaObject).spec?.hard), resourceListFromJSON((old as QuotaObject).spec?.hard))) this.queue.add(objectKey(q));
      },
    });
    this.resyncTimer = setInterval(() => {
      for (const q of this.quotas.list()) this.queue.add(objectKey(q));
    }, this.options.resyncMs ?? defaultQuotaResyncMs);
    this.resyncTimer.unref();
  }

  /** Stops syncing. */
  stop(): void {
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    this.queue.stop();
  }

  /** Resolves once no quota is waiting or being synced (for tests). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /**
   * The objects of an evaluator's resource by namespace, kept from its informer (started on first
   * use, with replenishment handlers); undefined when the resource is not served.
   */
  private monitor(group: string, resource: string): Monitor | undefined {
    const key = `${resource}.${group}`;
    const known = this.monitors.get(key);
    if (known) return known;
    let informer: Informer;
    try {
      informer = this.options.informers.get(group, resource);
    } catch {
      // Not served (yet: a custom resource's definition may come later); asked again next sync.
      return undefined;
    }
    const byNamespace = new Map<string, Map<string, KubeObject>>();
    const put = (obj: KubeObject) => {
      const ns = obj.metadata.namespace ?? '';
      let m = byNamespace.get(ns);
      if (!m) byNamespace.set(ns, (m = new Map()));
      m.set(obj.metadata.name ?? '', obj);
    };
    const monitor: Monitor = { informer, byNamespace };
    this.monitors.set(key, monitor);
    informer.addHandlers({
      added: put,
      updated: (obj, old) => {
        put(obj);
        if (updateNeedsReplenish(group, resource, old, obj, (this.options.now ?? Date.now)())) this.replenish(group, resource, obj.metadata.namespace ?? '');
      },
      deleted: (obj) => {
        const ns = obj.metadata.namespace ?? '';
        const m = byNamespace.get(ns);
        m?.delete(obj.metadata.name ?? '');
        if (m?.size === 0) byNamespace.delete(ns);
        this.replenish(group, resource, ns);
      },
    });
    return monitor;
  }

  /** Queues the quotas of namespace that track group/resource (kube's replenishQuota). */
  private replenish(group: string, resource: string, namespace: string): void {
    const evaluator = this.registry.get(group, resource);
    if (!evaluator) return;
    for (const q of this.quotas.list()) {
      if (q.metadata.namespace !== namespace) continue;
      const hard = Object.keys((q as QuotaObject).status?.hard ?? {});
      if (evaluator.matchingResources(hard).length > 0) this.queue.add(objectKey(q));
    }
  }

  private async listNamespace(e: QuotaEvaluator, namespace: string): Promise<Iterable<KubeObject> | undefined> {
    const monitor = this.monitor(e.group, e.resource);
    if (!monitor) return undefined;
    await monitor.informer.synced;
    return [...(monitor.byNamespace.get(namespace)?.values() ?? [])];
  }

  /** Recounts one quota and writes its status when it changed (kube's syncResourceQuota). */
  private async sync(key: string): Promise<void> {
    const quota = this.quotas.get(key) as QuotaObject | undefined;
    if (!quota) return;
    const hard = resourceListFromJSON(quota.spec?.hard);
    // Object counts of any served resource: make sure an evaluator exists for each one named.
    for (const name of hard.keys()) {
      const gr = parseObjectCountName(name);
      if (gr && !isIgnoredResource(gr.group, gr.resource)) this.registry.getOrCreate(gr.group, gr.resource);
    }
    const statusHard = quota.status?.hard;
    const statusUsed = quota.status?.used;
    // kube's lists are omitempty: an empty one is absent, so only a missing one with content is dirty.
    let dirty = !equals(hard, resourceListFromJSON(statusHard)) || (statusHard === undefined && hard.size > 0);
    const used = resourceListFromJSON(statusUsed);
    const observed = await calculateUsage(quota, this.registry.list(), (e, ns) => this.listNamespace(e, ns));
    for (const [k, v] of observed) used.set(k, v);
    const newUsed = mask(used, hard.keys());
    dirty ||= !equals(newUsed, resourceListFromJSON(statusUsed)) || (statusUsed === undefined && newUsed.size > 0);
    if (!dirty) return;
    const status: QuotaObject['status'] = {};
    if (hard.size > 0) status.hard = resourceListToJSON(hard);
    if (newUsed.size > 0) status.used = resourceListToJSON(newUsed);
    await this.options.writeStatus({ ...quota, status });
  }
}
