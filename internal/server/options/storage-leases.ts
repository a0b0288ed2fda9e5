/**
 * --lease-reuse-duration-seconds (kube's EtcdOptions): how long one etcd lease is shared by keys
 * with a TTL (storage/etcd3/lease-manager.ts). The TTL keys are events (--event-ttl, an hour by
 * default: 3 minutes of reuse, capped by this flag) and the API servers' addresses of the lease
 * endpoint reconciler (15 s, for which kube's 5% rule reuses nothing).
 */
import { FlagError, intFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated etcd lease options. */
export interface StorageLeaseOptions {
  readonly reuseDurationSeconds: number;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly storageLeases?: StorageLeaseOptions;
  }
}

/** kube's default: 60 seconds. */
export const defaultStorageLeaseOptions: StorageLeaseOptions = { reuseDurationSeconds: 60 };

/** The --lease-reuse-duration-seconds flag group. */
export const storageLeaseFlags: FlagGroup<'storageLeases'> = {
  register(y) {
    y.option('lease-reuse-duration-seconds', {
      type: 'string',
      default: '60',
      describe:
        'The time in seconds that each lease is reused. A lower value could avoid large number of objects reusing the same lease. Notice that a too small value may cause performance problems at storage layer.',
    });
  },
  validate(p) {
    const reuseDurationSeconds = intFlag('lease-reuse-duration-seconds', p['lease-reuse-duration-seconds'] ?? '60');
    if (reuseDurationSeconds < 1) throw new FlagError(`--lease-reuse-duration-seconds should be greater than 0, but value '${reuseDurationSeconds}' provided`);
    return { storageLeases: { reuseDurationSeconds } };
  },
};
