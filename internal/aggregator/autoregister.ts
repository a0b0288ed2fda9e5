/**
 * kube's autoregister controller: keeps the local APIServices this server wants in storage.
 * Those registered "on start" (the built-in group versions) carry the label
 * kube-aggregator.kubernetes.io/automanaged=onstart: they are created or brought back to their
 * spec, and one left by an earlier start that is no longer wanted is deleted on the first pass.
 * Those registered while running (CRD group versions) carry automanaged=true and are deleted once
 * no longer wanted. An APIService without the label is the user's and is left alone.
 */
import type { KubeObject } from '../../api/meta/types.js';
import { hasReason } from '../apierrors/status-error.js';
import type { Informer } from '../controllers/informer.js';
import type { ResourceClient } from '../controllers/resource-client.js';
import { WorkQueue } from '../controllers/work-queue.js';
import type { Logger } from '../observability/logging.js';
import { apiServiceName, type APIServicePriority } from './priorities.js';

/** The label kube's autoregister controller manages its APIServices by. */
export const automanagedLabel = 'kube-aggregator.kubernetes.io/automanaged';

/** Which kind of automanaged APIService. */
export type AutomanagedMode = 'onstart' | 'true';

interface Desired {
  readonly group: string;
  readonly version: string;
  readonly priority: APIServicePriority;
  readonly mode: AutomanagedMode;
}

/** Keeps the wanted local APIServices. */
export class AutoRegister {
  private readonly desired = new Map<string, Desired>();
  /** Names already synced once: an onstart APIService found unwanted after that is kept. */
  private readonly syncedOnce = new Set<string>();
  private readonly queue: WorkQueue;
  private started = false;

  constructor(
    private readonly informer: Informer,
    private readonly client: ResourceClient,
    log: Logger,
  ) {
    this.queue = new WorkQueue((name) => this.sync(name), { retryMs: 1000, onDrop: (name, err) => log.error(`autoregister: giving up on APIService ${name}: ${(err as Error).message}`) });
  }

  /** Wants a local APIService for group/version with the given priorities and mode. */
  want(group: string, version: string, priority: APIServicePriority, mode: AutomanagedMode): void {
    const name = apiServiceName(group, version);
    this.desired.set(name, { group, version, priority, mode });
    if (this.started) this.queue.add(name);
  }

  /** No longer wants the APIService of group/version. */
  unwant(group: string, version: string): void {
    const name = apiServiceName(group, version);
    if (!this.desired.delete(name)) return;
    if (this.started) this.queue.add(name);
  }

  /** Starts reconciling (once the informer has synced): every wanted and every automanaged APIService. */
  async start(): Promise<void> {
    await this.informer.synced;
    this.started = true;
    this.informer.addHandlers({
      added: (obj) => this.queue.add(obj.metadata.name ?? ''),
      updated: (obj) => this.queue.add(obj.metadata.name ?? ''),
      deleted: (obj) => this.queue.add(obj.metadata.name ?? ''),
    });
    for (const name of this.desired.keys()) this.queue.add(name);
  }

  /** Stops reconciling. */
  stop(): void {
    this.queue.stop();
  }

  private spec(d: Desired): Record<string, unknown> {
    return { group: d.group, version: d.version, groupPriorityMinimum: d.priority.group, versionPriority: d.priority.version };
  }

  private async sync(name: string): Promise<void> {
    const desired = this.desired.get(name);
    const current = this.informer.get(name);
    const managedAs = current?.metadata.labels?.[automanagedLabel];
    if (!current) {
      if (!desired) return;
      await this.client.create({ apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name, labels: { [automanagedLabel]: desired.mode } }, spec: this.spec(desired) }).catch((err: unknown) => {
        if (!hasReason(err, 'AlreadyExists')) throw err;
      });
      this.syncedOnce.add(name);
      return;
    }
    // The user's own APIService (no label) is never touched.
    if (managedAs !== 'onstart' && managedAs !== 'true') return;
    if (!desired) {
      // An onstart APIService is deleted only on the first pass: one a newer server left behind is
      // not deleted later by an older one that is still running.
      if (managedAs === 'onstart' && this.syncedOnce.has(name)) return;
      await this.client.delete(name, '', { uid: current.metadata.uid ?? '' }).catch((err: unknown) => {
        if (!hasReason(err, 'NotFound') && !hasReason(err, 'Conflict')) throw err;
      });
      this.syncedOnce.add(name);
      return;
    }
    this.syncedOnce.add(name);
    if (!needsUpdate(current, this.spec(desired), desired.mode)) return;
    await this.client.update(name, '', (obj) => ({
      ...obj,
      metadata: { ...obj.metadata, labels: { ...(obj.metadata.labels ?? {}), [automanagedLabel]: desired.mode } },
      spec: this.spec(desired),
    }));
  }
}

function needsUpdate(current: KubeObject, spec: Record<string, unknown>, mode: AutomanagedMode): boolean {
  if (current.metadata.labels?.[automanagedLabel] !== mode) return true;
  const have = (current.spec ?? {}) as Record<string, unknown>;
  if (have.service) return true;
  // An empty group is omitted from the stored object (omitempty), as in kube.
  return Object.entries(spec).some(([k, v]) => (have[k] ?? (typeof v === 'string' ? '' : undefined)) !== v);
}
