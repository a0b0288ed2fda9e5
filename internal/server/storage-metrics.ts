/**
 * The storage metrics that poll etcd, started with the server and stopped with it:
 * apiserver_storage_objects (--etcd-count-metric-poll-period), apiserver_storage_size_bytes
 * (read at each scrape) and, when shown, the deprecated apiserver_storage_db_total_size_in_bytes
 * (--etcd-db-metric-poll-interval).
 */
import type { Etcd3 } from 'etcd3';
import type { Logger } from '../observability/logging.js';
import type { ServerMetrics } from '../observability/metrics.js';
import type { EtcdClientFactory } from '../storage/etcd3/client.js';
import { EtcdStatusMonitor, startDbSizePolling } from '../storage/etcd3/db-size.js';
import { startObjectCounting, type ObjectCountSource } from '../storage/etcd3/object-count.js';
import { defaultMetricsOptions, type MetricsOptions } from './options/metrics.js';

/** How long a scrape waits for etcd's status (kube's monitor: one second). */
const scrapeStatusTimeoutMs = 1000;

/** Starts the storage metric pollers; returns stop (call before closing the etcd client). */
export function startStorageMetrics(deps: {
  readonly store: ObjectCountSource;
  readonly client: Etcd3;
  readonly etcdServers: readonly string[];
  /** Makes the per-endpoint status clients (with the TLS files of the shared one). */
  readonly clients: EtcdClientFactory;
  readonly metrics: ServerMetrics;
  readonly options: MetricsOptions | undefined;
  readonly log: Logger;
}): () => void {
  const options = deps.options ?? defaultMetricsOptions;
  const storage = deps.metrics.storage;
  const monitor = new EtcdStatusMonitor(deps.etcdServers, deps.client, deps.clients);
  storage.setSizeSource(() => monitor.largest(scrapeStatusTimeoutMs));
  const stopCounting = startObjectCounting(deps.store, options.etcdCountMetricPollPeriodMs, storage.objects);
  // Polled only when exported: hidden since 1.29 unless --show-hidden-metrics-for-version.
  const stopPolling = deps.metrics.registry.exports('apiserver_storage_db_total_size_in_bytes')
    ? startDbSizePolling(monitor, options.etcdDbMetricPollIntervalMs, storage.dbTotalSize, (ep, err) =>
        deps.log.v(4, `Failed to get storage db size for ep ${ep}: ${(err as Error)?.message ?? String(err)}`),
      )
    : () => undefined;
  return () => {
    stopCounting();
    stopPolling();
    storage.setSizeSource(async () => undefined);
    monitor.close();
  };
}
