/**
 * Request flow control as the options choose it: API Priority and Fairness
 * (--enable-priority-and-fairness, the default) or kube's plain max-in-flight limits.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildPriorityAndFairness, type PriorityAndFairnessDeps } from '../flowcontrol/apf/build.js';
import { withMaxInFlightLimit } from '../flowcontrol/max-in-flight.js';
import type { Filter } from '../filters/interface.js';
import { defaultFlowControlOptions, type FlowControlOptions } from './options/flow-control.js';

/** Flow control as the chain and the server use it. */
export interface FlowControl {
  /** The filter between impersonation and authorization (absent: no limit at all). */
  readonly filter?: Filter;
  /** Serves the /debug/api_priority_and_fairness/ endpoints (priority and fairness only). */
  serveDebug(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): boolean;
  /** Resolves once flow control's configuration is in force (absent: at once). */
  readonly ready?: Promise<void>;
  /** Post-start hooks readyz reports (priority and fairness's); absent: none. */
  readonly postStartHooks?: ReadonlyArray<{ readonly name: string; readonly done: () => boolean }>;
  start(): void;
  stop(): void;
}

/** Builds flow control from --max-requests-inflight, --max-mutating-requests-inflight and --enable-priority-and-fairness. */
export function buildFlowControl(options: FlowControlOptions | undefined, deps: Omit<PriorityAndFairnessDeps, 'serverConcurrencyLimit'>): FlowControl {
  const o = options ?? defaultFlowControlOptions;
  if (o.enablePriorityAndFairness) {
    return buildPriorityAndFairness({ ...deps, serverConcurrencyLimit: o.maxRequestsInFlight + o.maxMutatingRequestsInFlight });
  }
  const noLimit = o.maxRequestsInFlight === 0 && o.maxMutatingRequestsInFlight === 0;
  return {
    ...(noLimit ? {} : { filter: withMaxInFlightLimit({ maxRequestsInFlight: o.maxRequestsInFlight, maxMutatingRequestsInFlight: o.maxMutatingRequestsInFlight, registry: deps.registry }) }),
    serveDebug: () => false,
    start: () => undefined,
    stop: () => undefined,
  };
}
