/**
 * kube's start-kube-apiserver-identity-lease-controller: the server keeps its identity Lease in
 * kube-system (created if missing), renewing it every interval with its holderIdentity
 * (<id>_<uuid>, new at every start), the lease duration, and kube's identity and host name labels.
 */
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { Logger } from '../../observability/logging.js';
import type { ResourceClient } from '../resource-client.js';
import { hostnameLabelKey, identityComponent, identityLabelKey, microTime } from './identity.js';

/** What the controller writes. */
export interface IdentityLeaseConfig {
  /** The Lease's name (apiServerID). */
  readonly id: string;
  readonly hostname: string;
  readonly leaseDurationSeconds: number;
  readonly renewIntervalMs: number;
}

/** Keeps this server's identity Lease; start once, stop at shutdown. */
export class IdentityLeaseController {
  private readonly holderIdentity: string;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly leases: ResourceClient,
    private readonly config: IdentityLeaseConfig,
    private readonly log: Logger,
  ) {
    this.holderIdentity = `${config.id}_${randomUUID()}`;
  }

  /** Renews now and then every interval (a renewal still running is not overlapped). */
  start(): void {
    const tick = (): void => {
      this.running ??= this.sync()
        .catch((err: unknown) => this.log.warn(`failed to renew the apiserver identity lease ${this.config.id}: ${(err as Error).message}`))
        .finally(() => (this.running = undefined));
    };
    tick();
    this.timer = setInterval(tick, this.config.renewIntervalMs);
    this.timer.unref();
  }

  /** Stops renewing (the Lease then lapses and is garbage-collected, as kube's). */
  stop(): void {
    clearInterval(this.timer);
  }

  private apply(lease: KubeObject): KubeObject {
    lease.metadata.labels = { ...lease.metadata.labels, [identityLabelKey]: identityComponent, [hostnameLabelKey]: this.config.hostname };
    lease.spec = {
      ...((lease.spec as object | undefined) ?? {}),
      holderIdentity: this.holderIdentity,
      leaseDurationSeconds: this.config.leaseDurationSeconds,
      renewTime: microTime(Date.now()),
    };
    return lease;
  }

  private async sync(): Promise<void> {
    try {
      await this.leases.update(this.config.id, 'kube-system', (lease) => this.apply(lease));
    } catch (err) {
      if (!hasReason(err, 'NotFound')) throw err;
      try {
        await this.leases.create(
          this.apply({ kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', metadata: { name: this.config.id, namespace: 'kube-system' } }),
        );
      } catch (createErr) {
        // Another server of the same host created it first: the next renewal updates it.
        if (!hasReason(createErr, 'AlreadyExists')) throw createErr;
      }
    }
  }
}
