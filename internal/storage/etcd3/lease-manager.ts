/**
 * etcd leases for keys with a TTL, reused as kube's leaseManager reuses them: a key asking for
 * ttl seconds gets the previous lease when that lease still outlives ttl by less than the reuse
 * window (5% of ttl, at most --lease-reuse-duration-seconds), else a new lease of ttl plus that
 * window. Few leases for many TTL keys, and no key outlives its TTL by more than the window.
 */
import type { Etcd3 } from 'etcd3';

/** kube's leaseReuseDurationPercent. */
const reusePercent = 0.05;

/** Grants (and reuses) etcd leases. One per store; callers may share it. */
export class LeaseManager {
  private prevLeaseId = '0';
  private prevExpiresAt = 0;

  /** maxReuseSeconds: --lease-reuse-duration-seconds (kube's default 60). */
  constructor(
    private readonly client: Etcd3,
    private readonly maxReuseSeconds = 60,
    private readonly now: () => number = Date.now,
  ) {}

  /** A lease ID for a key that must live ttlSeconds (a whole number of seconds, at least 1). */
  async getLease(ttlSeconds: number): Promise<string> {
    const now = this.now();
    const reuse = Math.min(Math.floor(reusePercent * ttlSeconds), this.maxReuseSeconds);
    const valid = now + ttlSeconds * 1000 < this.prevExpiresAt;
    const sufficient = now + (ttlSeconds + reuse) * 1000 > this.prevExpiresAt;
    if (valid && sufficient) return this.prevLeaseId;
    const granted = await this.client.leaseClient.leaseGrant({ TTL: ttlSeconds + reuse, ID: 0 });
    this.prevLeaseId = String(granted.ID);
    this.prevExpiresAt = now + (ttlSeconds + reuse) * 1000;
    return this.prevLeaseId;
  }
}
