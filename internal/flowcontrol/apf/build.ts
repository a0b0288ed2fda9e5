/**
 * PLACEHOLDER (owner: the apf-config helper, issue 15): API Priority and Fairness as the server
 * runs it: the bootstrap configuration, the configuration controller (FlowSchemas and
 * PriorityLevelConfigurations to PriorityLevelSpecs, status conditions), classification, the work
 * estimator and the filter that asks the FlowDispatcher for seats. Until it lands, nothing is done.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SharedInformers } from '../../controllers/shared-informers.js';
import type { Filter } from '../../filters/interface.js';
import type { KlogLogger } from '../../observability/logging.js';
import type { KubeRegistry } from '../../observability/kube-registry.js';
import type { RestStorage } from '../../registry/interface.js';
import type { ObjectCountSource } from '../../storage/etcd3/object-count.js';

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
}

/** Priority and fairness, running. */
export interface PriorityAndFairness {
  /** The filter of the handler chain (between impersonation and authorization, as kube's). */
  readonly filter: Filter;
  /** Serves /debug/api_priority_and_fairness/dump_*; false for other paths. */
  serveDebug(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): boolean;
  /** Starts the bootstrap configuration and the configuration controller (after the server listens). */
  start(): void;
  stop(): void;
}

/** Builds priority and fairness. */
export function buildPriorityAndFairness(_deps: PriorityAndFairnessDeps): PriorityAndFairness {
  return { filter: () => undefined, serveDebug: () => false, start: () => undefined, stop: () => undefined };
}
