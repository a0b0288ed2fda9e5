/**
 * The availability controller (kube's local and remote available controllers): sets the
 * Available condition of every APIService. A local one is always available; a service-backed one
 * needs its Service, for a ClusterIP Service the port and EndpointSlices with a ready endpoint and
 * the port's name, and a 2xx answer to discovery from the extension server. Checked on every change of the
 * APIService, its Service or its EndpointSlices, every 30 s, and sooner again after a failure; the
 * status is written only when it changes.
 */
import type { KubeObject } from '../../api/meta/types.js';
import { hasReason } from '../apierrors/status-error.js';
import type { Informer } from '../controllers/informer.js';
import type { ResourceClient } from '../controllers/resource-client.js';
import { WorkQueue } from '../controllers/work-queue.js';
import type { Logger } from '../observability/logging.js';
import type { APIServiceIndex } from './api-services.js';
import { checkDiscovery } from './discovery-check.js';
import type { APIServiceView } from './interface.js';
import type { AvailabilityMetrics } from './metrics.js';
import type { ServiceResolver } from './service-resolver.js';
import type { BackendTransports } from './transport.js';

/** How often every APIService is checked again. */
export const resyncMs = 30_000;

/** One condition of an APIService. */
export interface APIServiceCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly lastTransitionTime?: string;
  readonly reason?: string;
  readonly message?: string;
}

type Verdict = Omit<APIServiceCondition, 'type' | 'lastTransitionTime'>;

function nowTime(): string {
  return new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** kube's SetAPIServiceCondition: replaces the condition of its type, keeping lastTransitionTime when the status is unchanged. */
export function withCondition(conditions: readonly APIServiceCondition[], next: Verdict & { type: string }): APIServiceCondition[] {
  const existing = conditions.find((c) => c.type === next.type);
  const lastTransitionTime = existing && existing.status === next.status && existing.lastTransitionTime ? existing.lastTransitionTime : nowTime();
  const cond: APIServiceCondition = { type: next.type, status: next.status, lastTransitionTime, ...(next.reason ? { reason: next.reason } : {}), ...(next.message ? { message: next.message } : {}) };
  return existing ? conditions.map((c) => (c.type === next.type ? cond : c)) : [...conditions, cond];
}

/** Keeps the Available conditions. */
export class AvailabilityController {
  private readonly queue: WorkQueue;
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private resync: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly deps: {
      readonly index: APIServiceIndex;
      readonly apiServices: Informer;
      readonly services: Informer;
      readonly endpointSlices: Informer;
      readonly resolver: ServiceResolver;
      readonly transports: BackendTransports;
      readonly status: ResourceClient;
      readonly metrics: AvailabilityMetrics;
      readonly log: Logger;
      /** How often every APIService is checked again (default resyncMs). */
      readonly resyncMs?: number;
    },
  ) {
    this.queue = new WorkQueue((name) => this.sync(name), { retryMs: 1000, maxRetries: 5 });
  }

  /** Starts following the APIServices, Services and Endpoints. */
  start(): void {
    const { index, services, endpointSlices } = this.deps;
    index.onChange((name) => this.queue.add(name));
    const byService = (namespace: string | undefined, name: string | undefined): void => {
      for (const api of index.remote()) {
        if (api.service?.namespace === namespace && api.service?.name === name) this.queue.add(api.name);
      }
    };
    const ofService = (obj: KubeObject): void => byService(obj.metadata.namespace, obj.metadata.name);
    const ofSlice = (obj: KubeObject): void => byService(obj.metadata.namespace, obj.metadata.labels?.['kubernetes.io/service-name']);
    services.addHandlers({ added: ofService, updated: ofService, deleted: ofService });
    endpointSlices.addHandlers({ added: ofSlice, updated: ofSlice, deleted: ofSlice });
    for (const api of index.all()) this.queue.add(api.name);
    this.resync = setInterval(() => {
      for (const api of index.all()) this.queue.add(api.name);
    }, this.deps.resyncMs ?? resyncMs);
    this.resync.unref();
  }

  /** Stops checking. */
  stop(): void {
    this.stopped = true;
    this.queue.stop();
    if (this.resync) clearInterval(this.resync);
    for (const t of this.timers) clearTimeout(t);
  }

  /** What the checks say of api now. */
  private async verdict(api: APIServiceView): Promise<Verdict> {
    const ref = api.service;
    if (!ref) return { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };
    const { resolver } = this.deps;
    const svc = resolver.service(ref);
    const where = `service/${ref.name} in ${JSON.stringify(ref.namespace)}`;
    if (!svc) return { status: 'False', reason: 'ServiceNotFound', message: `${where} is not present` };
    const spec = (svc.spec ?? {}) as { type?: string; ports?: Array<{ port?: number; name?: string }> };
    if ((spec.type ?? 'ClusterIP') === 'ClusterIP') {
      const port = (spec.ports ?? []).find((p) => p.port === ref.port);
      if (!port) return { status: 'False', reason: 'ServicePortError', message: `${where} is not listening on port ${ref.port}` };
      const portName = port.name ?? '';
      const slices = resolver.endpointSlicesOf(ref);
      if (slices.length === 0) return { status: 'False', reason: 'EndpointsNotFound', message: `cannot find endpointslices for ${where}` };
      const active = slices.some((s) => (s.endpoints ?? []).some((e) => e.conditions?.ready !== false) && (s.ports ?? []).some((p) => (p.name ?? '') === portName && p.port !== undefined));
      if (!active) return { status: 'False', reason: 'MissingEndpoints', message: `endpointslices for ${where} have no addresses with port name ${JSON.stringify(portName)}` };
    }
    try {
      await checkDiscovery(api, () => resolver.resolve(ref), this.deps.transports.insecure());
    } catch (err) {
      return { status: 'False', reason: 'FailedDiscoveryCheck', message: (err as Error).message };
    }
    return { status: 'True', reason: 'Passed', message: 'all checks passed' };
  }

  private async sync(name: string): Promise<void> {
    if (this.stopped) return;
    const api = this.deps.index.get(name);
    if (!api) {
      this.deps.metrics.forget(name);
      this.failures.delete(name);
      return;
    }
    const verdict = await this.verdict(api);
    const current = this.deps.index.get(name);
    // Deleted or changed while being checked: the change queued it again.
    if (!current || current.object.metadata.resourceVersion !== api.object.metadata.resourceVersion) return;
    this.deps.metrics.setAvailable(name, verdict.status === 'True');
    if (verdict.status === 'True') this.failures.delete(name);
    else this.retryLater(name);
    const conditions = ((api.object.status as { conditions?: APIServiceCondition[] } | undefined)?.conditions ?? []) as APIServiceCondition[];
    const old = conditions.find((c) => c.type === 'Available');
    if (old && old.status === verdict.status && (old.reason ?? '') === (verdict.reason ?? '') && (old.message ?? '') === (verdict.message ?? '')) return;
    if (old?.status !== verdict.status) this.deps.log.v(2, `changing APIService availability name=${name} oldStatus=${old?.status ?? 'Unknown'} newStatus=${verdict.status} message=${JSON.stringify(verdict.message ?? '')} reason=${verdict.reason ?? ''}`);
    try {
      await this.deps.status.update(name, '', (obj) => {
        const have = ((obj.status as { conditions?: APIServiceCondition[] } | undefined)?.conditions ?? []) as APIServiceCondition[];
        return { ...obj, status: { ...((obj.status as object | undefined) ?? {}), conditions: withCondition(have, { type: 'Available', ...verdict }) } };
      });
    } catch (err) {
      if (hasReason(err, 'NotFound')) return;
      throw err;
    }
    const wasAvailable = old?.status === 'True';
    if (wasAvailable !== (verdict.status === 'True') && verdict.status !== 'True') this.deps.metrics.becameUnavailable(name, verdict.reason ?? '');
  }

  /** A failing APIService is checked again sooner than the resync: 1 s, doubling, at most 30 s. */
  private retryLater(name: string): void {
    const n = (this.failures.get(name) ?? 0) + 1;
    this.failures.set(name, n);
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.queue.add(name);
    }, Math.min(1000 * 2 ** (n - 1), this.deps.resyncMs ?? resyncMs));
    t.unref();
    this.timers.add(t);
  }
}
