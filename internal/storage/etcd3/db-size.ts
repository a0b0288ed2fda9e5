/**
 * The etcd database size as kube's storage monitor reads it: the maintenance Status of each
 * --etcd-servers endpoint (its dbSize). apiserver_storage_size_bytes reads the largest at each
 * scrape; apiserver_storage_db_total_size_in_bytes{endpoint} is polled every
 * --etcd-db-metric-poll-interval (kube's startDBSizeMonitorPerEndpoint).
 */
import type { Etcd3 } from 'etcd3';
import type { EtcdClientFactory } from './client.js';
import type { GaugeVec } from '../../observability/vectors.js';

/** Reads the database size of each endpoint. */
export class EtcdStatusMonitor {
  /** One client per endpoint when there are several (a status call goes to whichever host a shared client picks). */
  private readonly clients = new Map<string, Etcd3>();

  constructor(
    private readonly endpoints: readonly string[],
    private readonly main: Etcd3,
    private readonly factory: EtcdClientFactory,
  ) {}

  private clientFor(endpoint: string): Etcd3 {
    if (this.endpoints.length === 1) return this.main;
    let c = this.clients.get(endpoint);
    if (!c) {
      c = this.factory.client([endpoint]);
      this.clients.set(endpoint, c);
    }
    return c;
  }

  /** Each endpoint's dbSize, or the error reading it, within timeoutMs. */
  async sizes(timeoutMs: number): Promise<Array<{ readonly endpoint: string; readonly size?: number; readonly error?: unknown }>> {
    return await Promise.all(
      this.endpoints.map(async (endpoint) => {
        try {
          const status = await this.clientFor(endpoint).maintenance.status({ deadline: new Date(Date.now() + timeoutMs) });
          return { endpoint, size: Number(status.dbSize) };
        } catch (error) {
          return { endpoint, error };
        }
      }),
    );
  }

  /** The largest dbSize over the endpoints, or undefined when any cannot be read (kube's Monitor). */
  async largest(timeoutMs: number): Promise<number | undefined> {
    let max = 0;
    for (const s of await this.sizes(timeoutMs)) {
      if (s.size === undefined) return undefined;
      if (s.size > max) max = s.size;
    }
    return max;
  }

  /** Closes the per-endpoint clients (not the shared one). */
  close(): void {
    for (const c of this.clients.values()) c.close();
    this.clients.clear();
  }
}

/**
 * Polls each endpoint's size into gauge (labelled by endpoint) every intervalMs, first at once;
 * returns stop. intervalMs 0 disables it. An endpoint that cannot be read keeps its last value.
 */
export function startDbSizePolling(monitor: EtcdStatusMonitor, intervalMs: number, gauge: GaugeVec, onError: (endpoint: string, err: unknown) => void): () => void {
  if (intervalMs <= 0) return () => undefined;
  let stopped = false;
  const poll = async (): Promise<void> => {
    for (const s of await monitor.sizes(intervalMs)) {
      if (stopped) return;
      if (s.size !== undefined) gauge.labels(s.endpoint).set(s.size);
      else onError(s.endpoint, s.error);
    }
  };
  void poll();
  const timer = setInterval(() => void poll(), intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
