/**
 * PLACEHOLDER (owner: the apf-queuing helper, issue 15): the FlowDispatcher of API Priority and
 * Fairness (seats from the server concurrency limit, borrowing between levels, shuffle-sharded fair
 * queuing). Until it lands, every request is admitted at once.
 */
import type { KubeRegistry } from '../../observability/kube-registry.js';
import type { FlowDispatcher } from '../interface.js';

/** What the dispatcher is built from. */
export interface FlowDispatcherConfig {
  /** --max-requests-inflight + --max-mutating-requests-inflight: the seats all levels share. */
  readonly serverConcurrencyLimit: number;
  /** How long a request may wait in a queue before it is rejected (kube: --request-timeout / 4). */
  readonly queueWaitLimitMs: number;
  /** apiserver_flowcontrol_* metrics go here. */
  readonly registry: KubeRegistry;
}

/** Builds the dispatcher. */
export function createFlowDispatcher(_config: FlowDispatcherConfig): FlowDispatcher {
  return {
    setPriorityLevels: () => undefined,
    admit: () => Promise.resolve({ admitted: true, finish: () => undefined }),
    maxSeats: () => 1,
    dump: () => '',
    stop: () => undefined,
  };
}
