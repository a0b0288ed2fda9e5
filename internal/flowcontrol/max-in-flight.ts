/**
 * PLACEHOLDER (owner: the inflight helper, issue 15): kube's WithMaxInFlightLimit, used when
 * --enable-priority-and-fairness is false. Until it lands, every request passes.
 */
import type { Filter } from '../filters/interface.js';
import type { KubeRegistry } from '../observability/kube-registry.js';

/** What the max-in-flight filter needs. */
export interface MaxInFlightDeps {
  /** --max-requests-inflight (0: no limit). */
  readonly maxRequestsInFlight: number;
  /** --max-mutating-requests-inflight (0: no limit). */
  readonly maxMutatingRequestsInFlight: number;
  readonly registry: KubeRegistry;
}

/** kube's WithMaxInFlightLimit. */
export function withMaxInFlightLimit(_deps: MaxInFlightDeps): Filter {
  return () => undefined;
}
