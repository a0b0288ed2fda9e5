/**
 * The node's Lease in kube-node-lease, as kubelet's node lease controller keeps it: holderIdentity
 * the node name, leaseDurationSeconds from --node-lease-duration-seconds (nodeLeaseDurationSeconds),
 * renewTime renewed every leaseDuration/4 (10 s by default) with an owner reference to the Node
 * once the Node exists. A renewal is tried 5 times at once; when the API server is away the Lease
 * is made sure of (get, or create) with exponential back-off from 200 ms to 7 s.
 */
import { ApiError, type ApiClient } from '../client/api-client.js';
import type { Logger } from '../../observability/logging.js';

/** The namespace of node leases. */
export const nodeLeaseNamespace = 'kube-node-lease';
const maxUpdateRetries = 5;
const maxBackoffMs = 7_000;

/** A metav1.MicroTime of ms (six fractional digits, as kube writes renewTime). */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** The Lease path of a node. */
export function leasePath(nodeName: string): string {
  return `/apis/coordination.k8s.io/v1/namespaces/${nodeLeaseNamespace}/leases/${encodeURIComponent(nodeName)}`;
}

/** One node's lease keeper. */
export class NodeLease {
  private lease: Record<string, any> | undefined;
  /** Called at each successful renewal with how long the request took (ms). */
  onRenew: ((latencyMs: number) => void) | undefined;

  constructor(
    private readonly client: ApiClient,
    private readonly nodeName: string,
    private readonly durationSeconds: number,
    private readonly log: Logger,
    /** The Node's uid, once known (for the owner reference). */
    private readonly nodeUid: () => string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** leaseDuration/4: how often the lease is renewed. */
  get renewIntervalMs(): number {
    return (this.durationSeconds * 1000) / 4;
  }

  private desired(base: Record<string, any> | undefined): Record<string, any> {
    const lease = structuredClone(base ?? { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.nodeName, namespace: nodeLeaseNamespace }, spec: {} });
    lease.spec = { ...lease.spec, holderIdentity: this.nodeName, leaseDurationSeconds: this.durationSeconds, renewTime: microTime(this.now()) };
    const uid = this.nodeUid();
    const refs = (lease.metadata.ownerReferences ?? []) as Record<string, unknown>[];
    if (uid && !refs.some((r) => r.kind === 'Node' && r.uid === uid)) lease.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: this.nodeName, uid }];
    return lease;
  }

  /** kubelet's ensureLease: the lease read, or created when missing. */
  private async ensure(): Promise<void> {
    try {
      this.lease = await this.client.get(leasePath(this.nodeName));
      return;
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
    const started = this.now();
    this.lease = await this.client.create(`/apis/coordination.k8s.io/v1/namespaces/${nodeLeaseNamespace}/leases`, this.desired(undefined));
    this.onRenew?.(this.now() - started);
  }

  /** One renewal (kubelet's retryUpdateLease): up to 5 updates, reading the lease again on a conflict; throws the last error. */
  async renew(): Promise<void> {
    if (!this.lease) {
      await this.ensure();
      return;
    }
    let last: unknown;
    for (let i = 0; i < maxUpdateRetries; i++) {
      const started = this.now();
      try {
        this.lease = await this.client.update(leasePath(this.nodeName), this.desired(this.lease));
        this.onRenew?.(this.now() - started);
        return;
      } catch (err) {
        last = err;
        if (err instanceof ApiError && (err.code === 409 || err.code === 404)) {
          this.lease = undefined;
          await this.ensure();
          if (this.lease) continue;
        }
      }
    }
    throw last;
  }

  /** Renews until signal aborts: every renewIntervalMs, with back-off (200 ms doubling to 7 s) while renewals fail. */
  async run(signal: AbortSignal, firstDelayMs = 0): Promise<void> {
    let backoff = 200;
    let delay = firstDelayMs;
    while (!signal.aborted) {
      if (delay > 0) await sleep(delay, signal);
      if (signal.aborted) return;
      try {
        await this.renew();
        backoff = 200;
        delay = this.renewIntervalMs;
      } catch (err) {
        this.log.warn('Failed to update lease', { node: this.nodeName, err: (err as Error).message, retry: `${backoff}ms` });
        delay = backoff;
        backoff = Math.min(maxBackoffMs, backoff * 2);
      }
    }
  }
}

/** Resolves after ms, or at once when signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
