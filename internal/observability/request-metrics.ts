/**
 * kube's request metrics (k8s.io/apiserver/pkg/endpoints/metrics, 1.33): names, help texts,
 * labels and buckets. The filter internal/filters/request-metrics.ts records into them; the watch
 * handler records watch events through watchEventRecorder.
 */
import type { Registry } from 'prom-client';
import { CounterVec, GaugeVec, HistogramVec, type CounterChild, type GaugeChild, type HistogramChild } from './vectors.js';

/** kube's request latency buckets (apiserver_request_duration_seconds, etcd_request_duration_seconds). */
export const requestLatencyBuckets: readonly number[] = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

/** 1 KB .. 1 GB, powers of ten (apiserver_response_sizes). */
export const responseSizeBuckets: readonly number[] = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

/** 1 KiB .. 128 KiB, powers of two (apiserver_watch_events_sizes). */
export const watchEventSizeBuckets: readonly number[] = [1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072];

/** request_kind of apiserver_current_inflight_requests: readOnly (get, list, watch) or mutating. */
export type RequestKind = 0 | 1;
/** The readOnly request kind. */
export const readOnlyKind: RequestKind = 0;
/** The mutating request kind. */
export const mutatingKind: RequestKind = 1;

/**
 * The "maximal number of currently used inflight request limit ... in last second": counts of
 * requests executing now per kind, and the gauge set each second to the highest count seen in it.
 */
export class InflightWatermark {
  private readonly current = [0, 0];
  private readonly max = [0, 0];
  private readonly gauges: readonly [GaugeChild, GaugeChild];
  /** Started by the first request, so a server that never serves one (a failed start) has none. */
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(gauge: GaugeVec) {
    this.gauges = [gauge.labels('readOnly'), gauge.labels('mutating')];
  }

  /** A request of kind starts executing. */
  begin(kind: RequestKind): void {
    if (this.timer === undefined && !this.stopped) {
      this.timer = setInterval(() => this.publish(), 1000);
      this.timer.unref();
    }
    const n = ++(this.current[kind] as number);
    if (n > (this.max[kind] as number)) this.max[kind] = n;
  }

  /** A request of kind is done. */
  end(kind: RequestKind): void {
    (this.current[kind] as number)--;
  }

  /** Sets the gauges to the last second's maxima and starts a new second. */
  publish(): void {
    for (const k of [readOnlyKind, mutatingKind]) {
      (this.gauges[k] as GaugeChild).set(this.max[k] as number);
      this.max[k] = this.current[k] as number;
    }
  }

  /** Stops the once-a-second update. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }
}

/** What the watch handler records per event of one watch (children resolved once per watch). */
export interface WatchEventRecorder {
  /** One event of bytes was sent. */
  sent(bytes: number): void;
}

/** The request metric families. */
export interface RequestMetrics {
  readonly total: CounterVec;
  readonly duration: HistogramVec;
  readonly responseSizes: HistogramVec;
  readonly longRunning: GaugeVec;
  readonly inflight: InflightWatermark;
  /** apiserver_dropped_requests_total by request_kind (readOnly, mutating): requests refused with 429 by flow control. */
  readonly dropped: CounterVec;
  readonly terminations: CounterVec;
  readonly aborts: CounterVec;
  readonly watchEvents: CounterVec;
  readonly watchEventSizes: HistogramVec;
  /** The recorder for the events of one watch of group/version kind. */
  watchEventRecorder(group: string, version: string, kind: string): WatchEventRecorder;
}

class EventRecorder implements WatchEventRecorder {
  constructor(
    private readonly count: CounterChild,
    private readonly sizes: HistogramChild,
  ) {}
  sent(bytes: number): void {
    this.count.inc();
    this.sizes.observe(bytes);
  }
}

/** Creates the request metric families on registry. */
export function createRequestMetrics(registry: Registry): RequestMetrics {
  const registers = [registry];
  const resourceLabels = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];
  const inflightGauge = new GaugeVec({
    name: 'apiserver_current_inflight_requests',
    help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
    labelNames: ['request_kind'],
    registers,
  });
  const watchEvents = new CounterVec({ name: 'apiserver_watch_events_total', help: 'Number of events sent in watch clients', labelNames: ['group', 'version', 'kind'], registers });
  const watchEventSizes = new HistogramVec({
    name: 'apiserver_watch_events_sizes',
    help: 'Watch event size distribution in bytes',
    labelNames: ['group', 'version', 'kind'],
    buckets: watchEventSizeBuckets,
    registers,
  });
  return {
    total: new CounterVec({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'],
      registers,
    }),
    duration: new HistogramVec({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labelNames: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
      buckets: requestLatencyBuckets,
      registers,
    }),
    responseSizes: new HistogramVec({
      name: 'apiserver_response_sizes',
      help: 'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
      labelNames: resourceLabels,
      buckets: responseSizeBuckets,
      registers,
    }),
    longRunning: new GaugeVec({
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      labelNames: resourceLabels,
      registers,
    }),
    inflight: new InflightWatermark(inflightGauge),
    dropped: new CounterVec({ name: 'apiserver_dropped_requests_total', help: "Number of requests dropped with 'Try again later' response", labelNames: ['request_kind'], registers }),
    terminations: new CounterVec({
      name: 'apiserver_request_terminations_total',
      help: 'Number of requests which apiserver terminated in self-defense.',
      labelNames: [...resourceLabels, 'code'],
      registers,
    }),
    aborts: new CounterVec({
      name: 'apiserver_request_aborts_total',
      help: 'Number of requests which apiserver aborted possibly due to a timeout, for each group, version, verb, resource, subresource and scope',
      labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope'],
      registers,
    }),
    watchEvents,
    watchEventSizes,
    watchEventRecorder: (group, version, kind) => new EventRecorder(watchEvents.labels(group, version, kind), watchEventSizes.labels(group, version, kind)),
  };
}
