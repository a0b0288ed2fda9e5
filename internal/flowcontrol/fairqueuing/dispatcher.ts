/**
 * The FlowDispatcher of API Priority and Fairness (kube 1.33's apf_controller.go dispatching
 * side): one queue set per priority level, seats from the server concurrency limit
 * (seats.ts), and every borrowingPeriodMs (kube: 10 s) a fair reallocation of lendable seats from
 * the levels' seat demand (seat-demand.ts, concurrency-allocation.ts), which sets the current limit
 * each queue set dispatches by. Levels that leave the configuration drain: they keep their seats
 * share and serve what they hold, then disappear.
 */
import { performance } from 'node:perf_hooks';
import type { KubeRegistry } from '../../observability/kube-registry.js';
import type { AdmitRequest, AdmitResult, FlowDispatcher, PriorityLevelSpec } from '../interface.js';
import { computeConcurrencyAllocation } from './concurrency-allocation.js';
import { dumpPriorityLevels, dumpQueues, dumpRequests } from './dump.js';
import { flowControlMetrics, LevelSeries } from './flow-metrics.js';
import { QueueSet, type ReadWriteGauges } from './queue-set.js';
import { SeatDemandStats } from './seat-demand.js';
import { Dealer } from './shuffle-sharding.js';
import { computeLevelSeats, effectiveMaxSeats, initialCurrentCL, type LevelSeats } from './seats.js';

/** What the dispatcher is built from. */
export interface FlowDispatcherConfig {
  /** --max-requests-inflight + --max-mutating-requests-inflight: the seats all levels share. */
  readonly serverConcurrencyLimit: number;
  /** How long a request may wait in a queue before it is rejected (kube: --request-timeout / 4). */
  readonly queueWaitLimitMs: number;
  /** apiserver_flowcontrol_* metrics go here. */
  readonly registry: KubeRegistry;
  /** How often seats are reallocated between levels from their demand (kube: 10 s); tests shorten it. */
  readonly borrowingPeriodMs?: number;
  /** A monotonic clock in milliseconds (performance.now by default). */
  readonly now?: () => number;
}

/** kube's borrowingAdjustmentPeriod. */
export const defaultBorrowingPeriodMs = 10_000;

interface LevelState {
  spec: PriorityLevelSpec;
  readonly qs: QueueSet;
  readonly series: LevelSeries;
  readonly stats: SeatDemandStats;
  seats: LevelSeats | undefined;
  currentCL: number;
  quiescing: boolean;
}

/** A request of a level nobody configured (a race with a configuration change and no catch-all level): run unlimited. */
const unlimited: AdmitResult = Object.freeze({ admitted: true, finish: () => undefined });

/** Builds the dispatcher; it has no levels until setPriorityLevels. */
export function createFlowDispatcher(config: FlowDispatcherConfig): FlowDispatcher {
  const m = flowControlMetrics(config.registry);
  const now = config.now ?? (() => performance.now());
  const scl = config.serverConcurrencyLimit;
  const rw: ReadWriteGauges = {
    waiting: [m.readVsWrite.child(['waiting', 'readOnly']), m.readVsWrite.child(['waiting', 'mutating'])],
    executing: [m.readVsWrite.child(['executing', 'readOnly']), m.readVsWrite.child(['executing', 'mutating'])],
  };
  const levels = new Map<string, LevelState>();
  let desired: readonly PriorityLevelSpec[] = [];
  let nominalCLSum = 0;
  let reapScheduled = false;

  const newLevel = (spec: PriorityLevelSpec): LevelState => {
    const series = new LevelSeries(m, spec.name);
    const st: LevelState = { spec, qs: new QueueSet(spec.name, series, rw, now), series, stats: new SeatDemandStats(), seats: undefined, currentCL: 0, quiescing: false };
    st.qs.onIdle = () => {
      if (st.quiescing && !reapScheduled) {
        reapScheduled = true;
        queueMicrotask(() => {
          reapScheduled = false;
          reconfigure(desired);
        });
      }
    };
    return st;
  };

  function reconfigure(given: readonly PriorityLevelSpec[]): void {
    desired = given;
    // kube ignores a level whose queuing cannot be shuffle-sharded (API validation normally prevents it).
    const specs = given.filter((s) => s.exempt || !s.queuing || typeof Dealer.create(s.queuing.queues, s.queuing.handSize) !== 'string');
    const wanted = new Set(specs.map((s) => s.name));
    for (const spec of specs) {
      let st = levels.get(spec.name);
      if (!st) {
        st = newLevel(spec);
        levels.set(spec.name, st);
      }
      st.spec = spec;
      st.quiescing = false;
      st.qs.configure(spec.exempt, spec.queuing, config.queueWaitLimitMs);
    }
    for (const [name, st] of levels) {
      if (wanted.has(name)) continue;
      if (st.qs.isIdle()) levels.delete(name);
      else st.quiescing = true;
    }
    const all = [...levels.values()];
    const seats = computeLevelSeats(
      scl,
      all.map((st) => st.spec),
    );
    nominalCLSum = 0;
    let maxWaiting = 0;
    for (const st of all) {
      const s = seats.get(st.spec.name) as LevelSeats;
      if (!st.seats) st.currentCL = initialCurrentCL(s);
      st.seats = s;
      nominalCLSum += s.nominalCL;
      if (st.spec.queuing && !st.spec.exempt) maxWaiting += st.spec.queuing.queues * st.spec.queuing.queueLengthLimit;
      const name = st.spec.name;
      m.nominalLimit.labels(name).set(s.nominalCL);
      m.concurrencyLimit.labels(name).set(s.nominalCL);
      m.lowerLimit.labels(name).set(s.minCL);
      m.upperLimit.labels(name).set(s.maxCL);
    }
    for (const c of rw.waiting) c.setDenominator(maxWaiting);
    for (const c of rw.executing) c.setDenominator(nominalCLSum);
    updateBorrowing();
  }

  function updateBorrowing(): void {
    const all = [...levels.values()];
    if (all.length === 0) return;
    const items = all.map((st) => {
      const s = st.seats as LevelSeats;
      st.stats.update(st.qs.demand.reset());
      // At least what the level used (up to its nominal share), never below its configured floor.
      const lowerBound = Math.max(s.minCL, Math.min(s.nominalCL, st.stats.highWatermark));
      return { lowerBound, upperBound: s.maxCL, target: Math.max(lowerBound, st.stats.smoothed) };
    });
    const result = computeConcurrencyAllocation(nominalCLSum, items);
    const allocs = 'error' in result ? all.map((st) => st.currentCL) : result.allocs;
    all.forEach((st, i) => {
      const currentCL = Math.round(allocs[i] as number);
      st.currentCL = currentCL;
      const name = st.spec.name;
      m.currentLimit.labels(name).set(currentCL);
      m.demandHighWatermark.labels(name).set(st.stats.highWatermark);
      m.demandAverage.labels(name).set(st.stats.avg);
      m.demandStdev.labels(name).set(st.stats.stdDev);
      m.demandSmoothed.labels(name).set(st.stats.smoothed);
      m.targetSeats.labels(name).set((items[i] as { target: number }).target);
      const denominator = currentCL > 0 ? currentCL : Math.max(1, Math.round(scl / 10));
      st.qs.setConcurrencyLimit(currentCL, denominator);
    });
    if (!('error' in result)) m.fairFrac.set(result.fairProp);
  }

  const timer = setInterval(updateBorrowing, config.borrowingPeriodMs ?? defaultBorrowingPeriodMs);
  timer.unref();

  const sortedLevels = (): LevelState[] => [...levels.values()].sort((a, b) => (a.spec.name < b.spec.name ? -1 : a.spec.name > b.spec.name ? 1 : 0));
  const dumped = () => sortedLevels().map((st) => ({ name: st.spec.name, quiescing: st.quiescing, qs: st.qs }));

  return {
    setPriorityLevels: (specs) => reconfigure(specs),
    admit(req: AdmitRequest): Promise<AdmitResult> {
      const st = levels.get(req.classification.priorityLevelName) ?? levels.get('catch-all');
      if (!st) return Promise.resolve(unlimited);
      const series = st.series.flow(req.classification.flowSchemaName);
      series.workEstimatedSeats.observe(Math.max(req.work.initialSeats, req.work.finalSeats));
      return st.qs.start(req, series);
    },
    maxSeats: (name) => effectiveMaxSeats(levels.get(name)?.seats),
    dump(kind, opts) {
      if (kind === 'priority_levels') return dumpPriorityLevels(dumped());
      if (kind === 'queues') return dumpQueues(dumped());
      return dumpRequests(dumped(), opts.includeRequestDetails);
    },
    stop: () => clearInterval(timer),
  };
}
