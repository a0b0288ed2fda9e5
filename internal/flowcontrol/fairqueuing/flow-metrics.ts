/**
 * kube 1.33's apiserver_flowcontrol_* metrics of the dispatching side
 * (k8s.io/apiserver/pkg/util/flowcontrol/metrics): names, help texts, labels, buckets; stability
 * and deprecation live in internal/observability/metric-catalogue.ts. One set per registry; the
 * queue sets keep the children of their level and flows so that a request touches no map.
 */
import type { KubeRegistry } from '../../observability/kube-registry.js';
import { CounterVec, GaugeVec, HistogramVec, type CounterChild, type GaugeChild, type HistogramChild } from '../../observability/vectors.js';
import type { RejectReason } from '../interface.js';
import { TimingRatioVec, type TimingRatioChild } from './timing-histogram.js';

const pl = 'priority_level';
const fs = 'flow_schema';
const durationBuckets = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];
const queueLengthBuckets = [0, 10, 25, 50, 100, 250, 500, 1000];
const utilizationBuckets = [0, 0.001, 0.003, 0.01, 0.03, 0.1, 0.25, 0.5, 0.75, 1];
const readWriteBuckets = [0, 0.001, 0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1];
const demandBuckets = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.7, 2, 2.8, 4, 6];
const seatBuckets = [1, 2, 4, 10];
const watchCountBuckets = [0, 1, 10, 100, 1000, 10000];

/** Every vector, registered on one registry. */
export class FlowControlMetrics {
  readonly rejected: CounterVec;
  readonly dispatched: CounterVec;
  readonly inqueueRequests: GaugeVec;
  readonly inqueueSeats: GaugeVec;
  readonly executingRequests: GaugeVec;
  readonly executingSeats: GaugeVec;
  readonly concurrencyInUse: GaugeVec;
  readonly waitDuration: HistogramVec;
  readonly executionSeconds: HistogramVec;
  readonly queueLength: HistogramVec;
  readonly noAccommodation: CounterVec;
  readonly workEstimatedSeats: HistogramVec;
  readonly watchCountSamples: HistogramVec;
  readonly concurrencyLimit: GaugeVec;
  readonly nominalLimit: GaugeVec;
  readonly lowerLimit: GaugeVec;
  readonly upperLimit: GaugeVec;
  readonly currentLimit: GaugeVec;
  readonly demandHighWatermark: GaugeVec;
  readonly demandAverage: GaugeVec;
  readonly demandStdev: GaugeVec;
  readonly demandSmoothed: GaugeVec;
  readonly targetSeats: GaugeVec;
  readonly fairFrac: GaugeChild;
  readonly currentR: GaugeVec;
  readonly dispatchR: GaugeVec;
  readonly latestS: GaugeVec;
  readonly nextSBounds: GaugeVec;
  readonly nextDiscountedSBounds: GaugeVec;
  readonly demandSeats: TimingRatioVec;
  readonly requestUtilization: TimingRatioVec;
  readonly seatUtilization: TimingRatioVec;
  readonly readVsWrite: TimingRatioVec;

  constructor(registry: KubeRegistry) {
    const registers = [registry];
    const counter = (name: string, help: string, labelNames: string[]): CounterVec => new CounterVec({ name: `apiserver_flowcontrol_${name}`, help, labelNames, registers });
    const gauge = (name: string, help: string, labelNames: string[]): GaugeVec => new GaugeVec({ name: `apiserver_flowcontrol_${name}`, help, labelNames, registers });
    const histogram = (name: string, help: string, labelNames: string[], buckets: number[]): HistogramVec =>
      new HistogramVec({ name: `apiserver_flowcontrol_${name}`, help, labelNames, buckets, registers });
    const timing = (name: string, help: string, labelNames: string[], buckets: number[]): TimingRatioVec =>
      new TimingRatioVec({ name: `apiserver_flowcontrol_${name}`, help, labelNames, buckets, registers });
    this.rejected = counter('rejected_requests_total', 'Number of requests rejected by API Priority and Fairness subsystem', [pl, fs, 'reason']);
    this.dispatched = counter('dispatched_requests_total', 'Number of requests executed by API Priority and Fairness subsystem', [pl, fs]);
    this.inqueueRequests = gauge('current_inqueue_requests', 'Number of requests currently pending in queues of the API Priority and Fairness subsystem', [pl, fs]);
    this.inqueueSeats = gauge('current_inqueue_seats', 'Number of seats currently pending in queues of the API Priority and Fairness subsystem', [pl, fs]);
    this.executingRequests = gauge(
      'current_executing_requests',
      'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
      [pl, fs],
    );
    this.executingSeats = gauge(
      'current_executing_seats',
      'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem',
      [pl, fs],
    );
    this.concurrencyInUse = gauge(
      'request_concurrency_in_use',
      'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem',
      [pl, fs],
    );
    this.waitDuration = histogram('request_wait_duration_seconds', 'Length of time a request spent waiting in its queue', [pl, fs, 'execute'], durationBuckets);
    this.executionSeconds = histogram(
      'request_execution_seconds',
      'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem',
      [pl, fs, 'type'],
      durationBuckets,
    );
    this.queueLength = histogram(
      'request_queue_length_after_enqueue',
      'Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued',
      [pl, fs],
      queueLengthBuckets,
    );
    this.noAccommodation = counter(
      'request_dispatch_no_accommodation_total',
      'Number of times a dispatch attempt resulted in a non accommodation due to lack of available seats',
      [pl, fs],
    );
    this.workEstimatedSeats = histogram(
      'work_estimated_seats',
      'Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness',
      [pl, fs],
      seatBuckets,
    );
    this.watchCountSamples = histogram('watch_count_samples', 'count of watchers for mutating requests in API Priority and Fairness', [pl, fs], watchCountBuckets);
    this.concurrencyLimit = gauge('request_concurrency_limit', 'Nominal number of execution seats configured for each priority level', [pl]);
    this.nominalLimit = gauge('nominal_limit_seats', 'Nominal number of execution seats configured for each priority level', [pl]);
    this.lowerLimit = gauge('lower_limit_seats', 'Configured lower bound on number of execution seats available to each priority level', [pl]);
    this.upperLimit = gauge('upper_limit_seats', 'Configured upper bound on number of execution seats available to each priority level', [pl]);
    this.currentLimit = gauge('current_limit_seats', 'current derived number of execution seats available to each priority level', [pl]);
    this.demandHighWatermark = gauge('demand_seats_high_watermark', 'High watermark, over last adjustment period, of demand_seats', [pl]);
    this.demandAverage = gauge('demand_seats_average', 'Time-weighted average, over last adjustment period, of demand_seats', [pl]);
    this.demandStdev = gauge('demand_seats_stdev', 'Time-weighted standard deviation, over last adjustment period, of demand_seats', [pl]);
    this.demandSmoothed = gauge('demand_seats_smoothed', 'Smoothed seat demands', [pl]);
    this.targetSeats = gauge('target_seats', 'Seat allocation targets', [pl]);
    this.fairFrac = gauge('seat_fair_frac', "Fair fraction of server's concurrency to allocate to each priority level that can use it", []).labels();
    this.currentR = gauge('current_r', 'R(time of last change)', [pl]);
    this.dispatchR = gauge('dispatch_r', 'R(time of last dispatch)', [pl]);
    this.latestS = gauge('latest_s', 'S(most recently dispatched request)', [pl]);
    this.nextSBounds = gauge('next_s_bounds', 'min and max, over queues, of S(oldest waiting request in queue)', [pl, 'bound']);
    this.nextDiscountedSBounds = gauge(
      'next_discounted_s_bounds',
      'min and max, over queues, of S(oldest waiting request in queue) - estimated work in progress',
      [pl, 'bound'],
    );
    this.demandSeats = timing(
      'demand_seats',
      'Observations, at the end of every nanosecond, of (the number of seats each priority level could use) / (nominal number of seats for that level)',
      [pl],
      demandBuckets,
    );
    this.requestUtilization = timing(
      'priority_level_request_utilization',
      'Observations, at the end of every nanosecond, of number of requests (as a fraction of the relevant limit) waiting or in any stage of execution (but only initial stage for WATCHes)',
      ['phase', pl],
      utilizationBuckets,
    );
    this.seatUtilization = timing(
      'priority_level_seat_utilization',
      'Observations, at the end of every nanosecond, of utilization of seats for any stage of execution (but only initial stage for WATCHes)',
      [pl, 'phase'],
      utilizationBuckets,
    );
    this.readVsWrite = timing(
      'read_vs_write_current_requests',
      'Observations, at the end of every nanosecond, of the number of requests (as a fraction of the relevant limit) waiting or in regular stage of execution',
      ['phase', 'request_kind'],
      readWriteBuckets,
    );
  }
}

const byRegistry = new WeakMap<KubeRegistry, FlowControlMetrics>();

/** The metrics of a registry, made and registered on first use. */
export function flowControlMetrics(registry: KubeRegistry): FlowControlMetrics {
  let m = byRegistry.get(registry);
  if (!m) {
    m = new FlowControlMetrics(registry);
    byRegistry.set(registry, m);
  }
  return m;
}

/**
 * The filter side's metrics (the work estimator's): call observeWatchCount with the number of
 * watchers a mutating request will notify, as kube's mutating work estimator records it.
 */
export function observeWatchCount(registry: KubeRegistry, priorityLevel: string, flowSchema: string, watchers: number): void {
  flowControlMetrics(registry).watchCountSamples.labels(priorityLevel, flowSchema).observe(watchers);
}

/** The children one (priority level, flow schema) pair updates, made once. */
export class FlowSeries {
  readonly inqueueRequests: GaugeChild;
  readonly inqueueSeats: GaugeChild;
  readonly executingRequests: GaugeChild;
  readonly executingSeats: GaugeChild;
  readonly concurrencyInUse: GaugeChild;
  readonly dispatched: CounterChild;
  readonly waitExecuted: HistogramChild;
  readonly waitRejected: HistogramChild;
  readonly execRegular: HistogramChild;
  readonly execWatch: HistogramChild;
  readonly queueLength: HistogramChild;
  readonly noAccommodation: CounterChild;
  readonly workEstimatedSeats: HistogramChild;
  private readonly rejected = new Map<RejectReason, CounterChild>();

  constructor(
    private readonly m: FlowControlMetrics,
    readonly level: string,
    readonly flowSchema: string,
  ) {
    this.inqueueRequests = m.inqueueRequests.labels(level, flowSchema);
    this.inqueueSeats = m.inqueueSeats.labels(level, flowSchema);
    this.executingRequests = m.executingRequests.labels(level, flowSchema);
    this.executingSeats = m.executingSeats.labels(level, flowSchema);
    this.concurrencyInUse = m.concurrencyInUse.labels(level, flowSchema);
    this.dispatched = m.dispatched.labels(level, flowSchema);
    this.waitExecuted = m.waitDuration.labels(level, flowSchema, 'true');
    this.waitRejected = m.waitDuration.labels(level, flowSchema, 'false');
    this.execRegular = m.executionSeconds.labels(level, flowSchema, 'regular');
    this.execWatch = m.executionSeconds.labels(level, flowSchema, 'watch');
    this.queueLength = m.queueLength.labels(level, flowSchema);
    this.noAccommodation = m.noAccommodation.labels(level, flowSchema);
    this.workEstimatedSeats = m.workEstimatedSeats.labels(level, flowSchema);
  }

  /** Counts one rejection. */
  reject(reason: RejectReason): void {
    let c = this.rejected.get(reason);
    if (!c) {
      c = this.m.rejected.labels(this.level, this.flowSchema, reason);
      this.rejected.set(reason, c);
    }
    c.inc();
  }
}

/** The per-level series. */
export class LevelSeries {
  readonly flows = new Map<string, FlowSeries>();
  readonly waitingRatio: TimingRatioChild;
  readonly executingRatio: TimingRatioChild;
  readonly seatRatio: TimingRatioChild;
  readonly demandRatio: TimingRatioChild;
  readonly currentR: GaugeChild;
  readonly dispatchR: GaugeChild;
  readonly latestS: GaugeChild;
  readonly sMin: GaugeChild;
  readonly sMax: GaugeChild;
  readonly dsMin: GaugeChild;
  readonly dsMax: GaugeChild;

  constructor(
    readonly m: FlowControlMetrics,
    readonly level: string,
  ) {
    this.waitingRatio = m.requestUtilization.child(['waiting', level]);
    this.executingRatio = m.requestUtilization.child(['executing', level]);
    this.seatRatio = m.seatUtilization.child([level, 'executing'], 0);
    this.demandRatio = m.demandSeats.child([level], 0);
    this.currentR = m.currentR.labels(level);
    this.dispatchR = m.dispatchR.labels(level);
    this.latestS = m.latestS.labels(level);
    this.sMin = m.nextSBounds.labels(level, 'min');
    this.sMax = m.nextSBounds.labels(level, 'max');
    this.dsMin = m.nextDiscountedSBounds.labels(level, 'min');
    this.dsMax = m.nextDiscountedSBounds.labels(level, 'max');
  }

  /** The series of a flow schema at this level. */
  flow(flowSchema: string): FlowSeries {
    let f = this.flows.get(flowSchema);
    if (!f) {
      f = new FlowSeries(this.m, this.level, flowSchema);
      this.flows.set(flowSchema, f);
    }
    return f;
  }
}
