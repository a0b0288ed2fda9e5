/**
 * Request flow control as the options choose it: API Priority and Fairness
 * (--enable-priority-and-fairness, the default) or kube's plain max-in-flight limits.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildPriorityAndFairness, type PriorityAndFairnessDeps } from '../flowcontrol/apf/build.js';
import { withMaxInFlightLimit } from '../flowcontrol/max-in-flight.js';
import type { Filter } from '../filters/interface.js';
import type { RequestMetrics } from '../observability/request-metrics.js';
import { defaultFlowControlOptions, type FlowControlOptions } from './options/flow-control.js';

/** Flow control as the chain and the server use it. */
export interface FlowControl {
  /** The filter between impersonation and authorization (absent: no limit at all). */
  readonly filter?: Filter;
  /**
   * The filter keeps apiserver_current_inflight_requests itself (kube's max-in-flight filter counts
   * the seats it hands out); otherwise the request metrics filter counts every executing request.
   */
  readonly countsInflight?: boolean;
  /** Serves the /debug/api_priority_and_fairness/ endpoints (priority and fairness only). */
  serveDebug(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): boolean;
  /** Resolves once flow control's configuration is in force (absent: at once). */
  readonly ready?: Promise<void>;
  /** Post-start hooks healthz, livez and readyz report (priority and fairness's, or max-in-flight-filter); absent: none. */
  readonly postStartHooks?: ReadonlyArray<{ readonly name: string; readonly done: () => boolean }>;
  start(): void;
  stop(): void;
}

/** Builds flow control from --max-requests-inflight, --max-mutating-requests-inflight and --enable-priority-and-fairness. */
export function buildFlowControl(options: FlowControlOptions | undefined, deps: Omit<PriorityAndFairnessDeps, 'serverConcurrencyLimit'> & { readonly requestMetrics?: RequestMetrics }): FlowControl {
  const o = options ?? defaultFlowControlOptions;
  if (o.enablePriorityAndFairness) {
    return buildPriorityAndFairness({ ...deps, serverConcurrencyLimit: o.maxRequestsInFlight + o.maxMutatingRequestsInFlight });
  }
  // Without limits kube installs no filter, and its in-flight gauge stays at 0.
  const noLimit = o.maxRequestsInFlight === 0 && o.maxMutatingRequestsInFlight === 0;
  const m = deps.requestMetrics;
  const filter = noLimit
    ? undefined
    : withMaxInFlightLimit({
        maxRequestsInFlight: o.maxRequestsInFlight,
        maxMutatingRequestsInFlight: o.maxMutatingRequestsInFlight,
        registry: deps.registry,
        ...(m ? { watermark: m.inflight, dropped: m.dropped } : {}),
      });
  // kube's watermark maintenance reports both kinds from the start, 0 until requests come.
  m?.inflight.publish();
  return {
    ...(filter ? { filter } : {}),
    countsInflight: m !== undefined,
    // kube registers this hook (it starts the in-flight watermark maintenance) whenever priority and fairness is off.
    postStartHooks: [{ name: 'max-in-flight-filter', done: () => true }],
    serveDebug: () => false,
    start: () => undefined,
    stop: () => undefined,
  };
}
