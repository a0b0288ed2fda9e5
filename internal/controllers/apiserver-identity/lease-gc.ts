/**
 * kube's start-kube-apiserver-identity-lease-garbage-collector: every period, the identity Leases
 * in kube-system (label apiserver.kubernetes.io/identity=kube-apiserver) that have lapsed are read
 * again and, still lapsed, deleted. Several servers may race to delete one: NotFound is fine.
 */
import { hasReason } from '../../apierrors/status-error.js';
import type { Logger } from '../../observability/logging.js';
import type { ResourceClient } from '../resource-client.js';
import { identityComponent, identityLabelKey, isLeaseExpired } from './identity.js';

/** Deletes lapsed identity Leases; start once, stop at shutdown. */
export class IdentityLeaseGC {
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly leases: ResourceClient,
    private readonly periodMs: number,
    private readonly log: Logger,
  ) {}

  /** Collects now and then every period (kube's wait.Until). */
  start(): void {
    const tick = (): void => {
      if (this.running) return;
      this.running = true;
      this.gc()
        .catch((err: unknown) => this.log.error(`Error while listing apiserver leases: ${(err as Error).message}`))
        .finally(() => (this.running = false));
    };
    tick();
    this.timer = setInterval(tick, this.periodMs);
    this.timer.unref();
  }

  /** Stops collecting (a pass already running finishes). */
  stop(): void {
    clearInterval(this.timer);
  }

  /** One pass. */
  async gc(): Promise<void> {
    const leases = await this.leases.list('kube-system');
    for (const lease of leases) {
      if (lease.metadata.labels?.[identityLabelKey] !== identityComponent || !isLeaseExpired(lease, Date.now())) continue;
      const name = lease.metadata.name as string;
      try {
        const fresh = await this.leases.get(name, 'kube-system');
        if (!isLeaseExpired(fresh, Date.now())) continue;
        await this.leases.delete(name, 'kube-system');
      } catch (err) {
        if (!hasReason(err, 'NotFound')) this.log.error(`Error deleting lease: ${(err as Error).message}`);
      }
    }
  }
}
