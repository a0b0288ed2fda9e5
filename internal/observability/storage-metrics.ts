/**
 * kube's storage metrics (k8s.io/apiserver/pkg/storage/etcd3/metrics, 1.33): etcd request latency,
 * counts and errors by operation and type, stored objects per resource (polled every
 * --etcd-count-metric-poll-period), the database size read at scrape time
 * (apiserver_storage_size_bytes) and, hidden since its deprecation in 1.28, the size per endpoint
 * polled every --etcd-db-metric-poll-interval (apiserver_storage_db_total_size_in_bytes).
 */
import { performance } from 'node:perf_hooks';
import type { Registry } from 'prom-client';
import type { EtcdRequestObserver } from '../storage/etcd3/observer.js';
import { requestLatencyBuckets } from './request-metrics.js';
import { CounterVec, GaugeVec, HistogramVec, type CounterChild, type HistogramChild } from './vectors.js';

/** The storage metric families. */
export interface StorageMetrics {
  readonly requestDuration: HistogramVec;
  readonly requests: CounterVec;
  readonly requestErrors: CounterVec;
  /** apiserver_storage_objects{resource}: -1 when the last count failed. */
  readonly objects: GaugeVec;
  readonly sizeBytes: GaugeVec;
  readonly dbTotalSize: GaugeVec;
  /**
   * Sets what apiserver_storage_size_bytes reads at each scrape: the database size (the largest
   * over the endpoints), or undefined when it cannot be read (no sample then, as kube).
   */
  setSizeSource(source: () => Promise<number | undefined>): void;
  /** The etcd3 store's observer recording etcd request metrics. */
  readonly observe: EtcdRequestObserver;
}

interface OperationChildren {
  readonly duration: HistogramChild;
  readonly count: CounterChild;
  errors: CounterChild | undefined;
}

/** Creates the storage metric families on registry. */
export function createStorageMetrics(registry: Registry): StorageMetrics {
  const registers = [registry];
  let sizeSource: (() => Promise<number | undefined>) | undefined;
  const requestDuration = new HistogramVec({
    name: 'etcd_request_duration_seconds',
    help: 'Etcd request latency in seconds for each operation and object type.',
    labelNames: ['operation', 'type'],
    buckets: requestLatencyBuckets,
    registers,
  });
  const requests = new CounterVec({ name: 'etcd_requests_total', help: 'Etcd request counts for each operation and object type.', labelNames: ['operation', 'type'], registers });
  const requestErrors = new CounterVec({ name: 'etcd_request_errors_total', help: 'Etcd failed request counts for each operation and object type.', labelNames: ['operation', 'type'], registers });
  const sizeBytes: GaugeVec = new GaugeVec({
    name: 'apiserver_storage_size_bytes',
    help: 'Size of the storage database file physically allocated in bytes.',
    labelNames: ['storage_cluster_id'],
    registers,
    collect: async () => {
      sizeBytes.reset();
      const size = await sizeSource?.();
      if (size !== undefined) sizeBytes.labels('etcd-0').set(size);
    },
  });
  const byOperation = new Map<string, OperationChildren>();
  const observe: EtcdRequestObserver = (operation, type, startedAt, error) => {
    if (operation === 'watch') return;
    const key = `${operation}|${type}`;
    let c = byOperation.get(key);
    if (!c) {
      c = { duration: requestDuration.labels(operation, type), count: requests.labels(operation, type), errors: undefined };
      byOperation.set(key, c);
    }
    c.duration.observe((performance.now() - startedAt) / 1000);
    c.count.inc();
    if (error !== undefined) (c.errors ??= requestErrors.labels(operation, type)).inc();
  };
  return {
    requestDuration,
    requests,
    requestErrors,
    objects: new GaugeVec({
      name: 'apiserver_storage_objects',
      help: 'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
      labelNames: ['resource'],
      registers,
    }),
    sizeBytes,
    dbTotalSize: new GaugeVec({
      name: 'apiserver_storage_db_total_size_in_bytes',
      help: 'Total size of the storage database file physically allocated in bytes.',
      labelNames: ['endpoint'],
      registers,
    }),
    setSizeSource: (source) => {
      sizeSource = source;
    },
    observe,
  };
}
