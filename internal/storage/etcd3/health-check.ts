/**
 * The etcd health and readiness checks (kube's storagebackend/factory newETCD3Check): a read of
 * `<prefix>/health` bounded by the check's timeout (--etcd-healthcheck-timeout,
 * --etcd-readycheck-timeout; zero is kube's 2s default), failing as
 * "error getting data from etcd: <reason>". At most one probe runs per half timeout: checks in
 * between (a busy load balancer probing several endpoints) get the last probe's outcome.
 *
 * The probes have a client of their own (client.ts's 'probe' client: the same servers and TLS
 * files, without the circuit breaker and retries): a probe must see every failure and end within
 * its timeout, and a probe timing out must not trip the breaker that the storage's requests go
 * through.
 */
import { GRPCDeadlineExceededError, type Etcd3 } from 'etcd3';
import { EtcdClientFactory } from './client.js';

/** kube's DefaultHealthcheckTimeout and DefaultReadinessTimeout. */
export const defaultEtcdCheckTimeoutMs = 2000;

class DeadlineExceeded extends Error {
  constructor() {
    super('context deadline exceeded');
  }
}

/** One etcd client for the health checks of a server. */
export class EtcdHealthProbe {
  private readonly client: Etcd3;
  private readonly key: string;

  /** hosts: the servers to probe, with clients from factory (plain, no TLS files, when absent). */
  constructor(hosts: readonly string[], prefix: string, factory?: EtcdClientFactory) {
    this.client = (factory ?? EtcdClientFactory.plain()).client(hosts, 'probe');
    this.key = `/${prefix}/health`.replace(/\/+/g, '/');
  }

  /** A check with its own timeout (ms; zero for the default) and rate limit. */
  check(timeoutMs: number): () => Promise<void> {
    const timeout = timeoutMs === 0 ? defaultEtcdCheckTimeoutMs : timeoutMs;
    // golang.org/x/time/rate with one token every timeout/2 and a burst of one.
    const intervalMs = timeout / 2;
    let lastProbe = -Infinity;
    // The outcome of the most recently sent probe (not the most recently answered one).
    let last: { at: number; err: Error | undefined } = { at: -Infinity, err: new Error('etcd client connection not yet established') };
    return async () => {
      const now = Date.now();
      if (intervalMs > 0 && now - lastProbe < intervalMs) {
        if (last.err) throw last.err;
        return;
      }
      lastProbe = now;
      let err: Error | undefined;
      try {
        await this.probe(timeout);
      } catch (e) {
        const reason = e instanceof DeadlineExceeded || e instanceof GRPCDeadlineExceededError ? 'context deadline exceeded' : (e as Error).message;
        err = new Error(`error getting data from etcd: ${reason}`);
      }
      if (now >= last.at) last = { at: now, err };
      if (err) throw err;
    };
  }

  private async probe(timeoutMs: number): Promise<void> {
    if (timeoutMs <= 0) throw new DeadlineExceeded();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.client.get(this.key).options({ deadline: new Date(Date.now() + timeoutMs) }).buffer(),
        // The call's deadline should end it; this also bounds any wait before the call is sent.
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new DeadlineExceeded()), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the client; checks fail afterwards. */
  close(): void {
    this.client.close();
  }
}
