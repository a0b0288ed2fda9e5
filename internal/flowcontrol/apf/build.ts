/**
 * API Priority and Fairness as the server runs it: the configuration controller (FlowSchemas and
 * PriorityLevelConfigurations to the dispatcher's levels and the classification order, the
 * Dangling conditions), the work estimator, the filter that asks the FlowDispatcher for seats,
 * and the debug dumps. The bootstrap configuration itself is kept by the
 * priority-and-fairness-config-producer in-server controller
 * (internal/controllers/bootstrap-objects/), which runs whether or not the filter is on, as kube's
 * does with the flowcontrol API served.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SharedInformers } from '../../controllers/shared-informers.js';
import { defaultFeatureGates } from '../../features/gates.js';
import type { FeatureGates } from '../../features/interface.js';
import type { Filter } from '../../filters/interface.js';
import type { KlogLogger } from '../../observability/logging.js';
import type { KubeRegistry } from '../../observability/kube-registry.js';
import type { RequestMetrics } from '../../observability/request-metrics.js';
import type { RestStorage } from '../../registry/interface.js';
import type { ObjectCountSource } from '../../storage/etcd3/object-count.js';
import { createFlowDispatcher } from '../fairqueuing/dispatcher.js';
import { observeWatchCount } from '../fairqueuing/flow-metrics.js';
import { ConfigController } from './config-controller.js';
import { DanglingStatusWriter } from './dangling-status.js';
import { serveDump } from './debug.js';
import { withPriorityAndFairness } from './filter.js';
import { ObjectCounts } from './object-counts.js';
import { DroppedRequestsTracker } from './retry-after.js';
import { WatchTracker } from './watch-tracker.js';
import { workEstimator } from './work-estimator.js';

const group = 'flowcontrol.apiserver.k8s.io';
/** kube's --etcd-count-metric-poll-period default, which its object count tracker follows. */
const objectCountPeriodMs = 60_000;

/** What priority and fairness is built from. */
export interface PriorityAndFairnessDeps {
  /** --max-requests-inflight + --max-mutating-requests-inflight. */
  readonly serverConcurrencyLimit: number;
  /** --request-timeout in ms (queue waits are limited to a quarter of it). */
  readonly requestTimeoutMs: number;
  readonly informers: SharedInformers;
  readonly storageOf: (group: string, resource: string, subresource?: string) => RestStorage | undefined;
  /** Object counts per resource, for the work estimate of lists. */
  readonly objectCounts: ObjectCountSource;
  readonly registry: KubeRegistry;
  readonly log: KlogLogger;
  /** --feature-gates (WatchList, ConsistentListFromCache); absent: kube's defaults. */
  readonly featureGates?: FeatureGates;
  /** The request metrics: a refused request counts in apiserver_dropped_requests_total (absent: not counted). */
  readonly requestMetrics?: Pick<RequestMetrics, 'dropped'>;
}

/** Priority and fairness, running. */
export interface PriorityAndFairness {
  /** The filter of the handler chain (between impersonation and authorization, as kube's). */
  readonly filter: Filter;
  /** Serves /debug/api_priority_and_fairness/dump_*; false for other paths. */
  serveDebug(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): boolean;
  /** Resolves once start() ran and the first digest of the stored configuration is in force. */
  readonly ready: Promise<void>;
  /** kube's post-start hooks of priority and fairness, for readyz: name and whether done. */
  readonly postStartHooks: ReadonlyArray<{ readonly name: string; readonly done: () => boolean }>;
  /** Starts the configuration controller and the object counts (after the server listens). */
  start(): void;
  stop(): void;
}

/** Builds priority and fairness; nothing runs until start(). */
export function buildPriorityAndFairness(deps: PriorityAndFairnessDeps): PriorityAndFairness {
  const gates = deps.featureGates ?? defaultFeatureGates;
  const dispatcher = createFlowDispatcher({ serverConcurrencyLimit: deps.serverConcurrencyLimit, queueWaitLimitMs: deps.requestTimeoutMs / 4, registry: deps.registry });
  const counts = new ObjectCounts(deps.objectCounts, objectCountPeriodMs);
  const watches = new WatchTracker();
  const estimate = workEstimator({
    counts,
    watches,
    maxSeats: (level) => dispatcher.maxSeats(level),
    watchList: gates.enabled('WatchList'),
    consistentListFromCache: gates.enabled('ConsistentListFromCache'),
    observeWatchCount: (level, flowSchema, watchers) => observeWatchCount(deps.registry, level, flowSchema, watchers),
  });
  const config = new ConfigController(dispatcher);
  let status: DanglingStatusWriter | undefined;
  let started = false;
  // The flowcontrol resources are not served: the mandatory configuration is all there is.
  let nothingToFollow = false;
  let resolveReady = (): void => undefined;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  const droppedKinds = deps.requestMetrics ? [deps.requestMetrics.dropped.labels('readOnly'), deps.requestMetrics.dropped.labels('mutating')] : undefined;
  const filter = withPriorityAndFairness({
    config,
    dispatcher,
    estimate,
    watches,
    dropped: new DroppedRequestsTracker(),
    ...(droppedKinds ? { recordDropped: (mutating: boolean) => droppedKinds[mutating ? 1 : 0]?.inc() } : {}),
  });
  return {
    filter,
    ready,
    serveDebug: (req, res, path, query) => serveDump(dispatcher, req, res, path, query),
    postStartHooks: [
      { name: 'priority-and-fairness-config-consumer', done: () => nothingToFollow || config.hasSynced() },
      { name: 'priority-and-fairness-filter', done: () => started },
    ],
    start() {
      if (started) return;
      started = true;
      counts.start();
      const statusStorage = deps.storageOf(group, 'flowschemas', 'status');
      status = statusStorage ? new DanglingStatusWriter(statusStorage, deps.log) : undefined;
      try {
        void config
          .follow({
            flowSchemas: deps.informers.get(group, 'flowschemas'),
            priorityLevels: deps.informers.get(group, 'prioritylevelconfigurations'),
            ...(status ? { status } : {}),
          })
          .then(resolveReady);
      } catch (err) {
        nothingToFollow = true;
        resolveReady();
        deps.log.error(`priority and fairness: the flowcontrol.apiserver.k8s.io resources are not served, only the mandatory configuration applies: ${(err as Error).message}`);
      }
    },
    stop() {
      config.stop();
      status?.stop();
      counts.stop();
      dispatcher.stop();
    },
  };
}
