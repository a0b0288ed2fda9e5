/**
 * Starts the APIServerIdentity loops (kube's two post-start hooks): this server's identity Lease
 * and the garbage collector of lapsed ones. The server starts them only with the APIServerIdentity
 * gate on (kube 1.33's default).
 */
import { hostname as osHostname } from 'node:os';
import type { Logger } from '../../observability/logging.js';
import type { RestStorage } from '../../registry/interface.js';
import { ResourceClient } from '../resource-client.js';
import { apiServerID, identityLeaseDurationSeconds, identityLeaseGCPeriodMs, identityLeaseRenewIntervalMs } from './identity.js';
import { IdentityLeaseGC } from './lease-gc.js';
import { IdentityLeaseController } from './lease-controller.js';

/** Timings and host name; kube's values when absent. */
export interface IdentityTuning {
  readonly hostname?: string;
  readonly identityLeaseDurationSeconds?: number;
  readonly identityLeaseRenewIntervalMs?: number;
  readonly identityLeaseGCPeriodMs?: number;
}

/** Starts both loops; returns the stop function. */
export function startApiServerIdentity(leases: RestStorage, log: Logger, tuning: IdentityTuning = {}): () => void {
  const hostname = tuning.hostname ?? osHostname();
  const client = new ResourceClient(leases, 'coordination.k8s.io', 'leases');
  const controller = new IdentityLeaseController(
    client,
    {
      id: apiServerID(hostname),
      hostname,
      leaseDurationSeconds: tuning.identityLeaseDurationSeconds ?? identityLeaseDurationSeconds,
      renewIntervalMs: tuning.identityLeaseRenewIntervalMs ?? identityLeaseRenewIntervalMs,
    },
    log,
  );
  const gc = new IdentityLeaseGC(client, tuning.identityLeaseGCPeriodMs ?? identityLeaseGCPeriodMs, log);
  controller.start();
  gc.start();
  return () => {
    controller.stop();
    gc.stop();
  };
}
