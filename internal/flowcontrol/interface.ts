/**
 * The pieces of request flow control and how they meet. API Priority and Fairness is cut in two:
 * the configuration side (internal/flowcontrol/apf/) turns FlowSchemas and
 * PriorityLevelConfigurations into PriorityLevelSpecs and classifies each request to a flow; the
 * dispatching side (internal/flowcontrol/fairqueuing/) turns the specs into seats (nominal, lendable
 * and borrowed concurrency), keeps a shuffle-sharded fair queue set per level and admits requests.
 * The max-in-flight filter (max-in-flight.ts) is the simpler alternative used when priority and
 * fairness is off.
 */
import type { RequestInfo } from '../request/request-info.js';
import type { UserInfo } from '../request/context.js';

/** kube's WorkEstimate: the seats a request occupies while it runs and just after. */
export interface WorkEstimate {
  /** Seats held while the handler runs (1 for most requests, more for large lists; at least 1). */
  readonly initialSeats: number;
  /** Seats held for additionalLatencyMs after the handler finished (the watch notifications a write causes); 0 for none. */
  readonly finalSeats: number;
  /** How long finalSeats stay held after the handler finished. */
  readonly additionalLatencyMs: number;
}

/** A priority level as its PriorityLevelConfiguration defines it (v1 field meanings). */
export interface PriorityLevelSpec {
  readonly name: string;
  readonly uid: string;
  /** spec.type Exempt: never queued, never rejected, but counted. */
  readonly exempt: boolean;
  /** spec.limited.nominalConcurrencyShares (or spec.exempt's; 0 allowed). */
  readonly nominalConcurrencyShares: number;
  /** spec.limited.lendablePercent (or spec.exempt's), 0-100. */
  readonly lendablePercent: number;
  /** spec.limited.borrowingLimitPercent; undefined means no limit. Exempt levels: undefined. */
  readonly borrowingLimitPercent?: number;
  /** spec.limited.limitResponse: absent for Reject (or exempt), else the Queue parameters. */
  readonly queuing?: { readonly queues: number; readonly handSize: number; readonly queueLengthLimit: number };
}

/** What the configuration side decided about one request. */
export interface Classification {
  readonly flowSchemaName: string;
  readonly flowSchemaUID: string;
  readonly priorityLevelName: string;
  readonly priorityLevelUID: string;
  /** Empty unless the FlowSchema's distinguisherMethod is ByUser (user name) or ByNamespace (namespace). */
  readonly flowDistinguisher: string;
  /** The level is exempt (the request is not queued and never rejected). */
  readonly exempt: boolean;
}

/** A request asking the dispatcher for seats. */
export interface AdmitRequest {
  readonly classification: Classification;
  readonly work: WorkEstimate;
  /** Aborted when the client goes away: a queued request leaves its queue (rejected, reason "cancelled"). */
  readonly signal: AbortSignal;
  /** For the dump_requests debug endpoint and metrics. */
  readonly user: UserInfo;
  readonly requestInfo: RequestInfo;
  /** The request is mutating (apiserver_flowcontrol metrics and dumps label it). */
  readonly mutating: boolean;
}

/** Why a request was not admitted (the values of kube's apiserver_flowcontrol_rejected_requests_total reason label). */
export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

/** The dispatcher's answer. finish() must be called exactly once when the handler is done. */
export type AdmitResult = { readonly admitted: true; finish(): void } | { readonly admitted: false; readonly reason: RejectReason };

/** The dispatching side: seats, borrowing, fair queuing, dumps. */
export interface FlowDispatcher {
  /**
   * Installs the current configuration (called at start and on every change): levels that
   * disappear keep serving what they hold and queue until they drain, as kube's do.
   */
  setPriorityLevels(levels: readonly PriorityLevelSpec[]): void;
  /** Waits (queued) until the request may run, or rejects it. */
  admit(req: AdmitRequest): Promise<AdmitResult>;
  /** The most seats one request of the level may take (the work estimator caps its estimate with it). */
  maxSeats(priorityLevelName: string): number;
  /** The text of /debug/api_priority_and_fairness/dump_priority_levels, dump_queues and dump_requests (kube's formats). */
  dump(kind: 'priority_levels' | 'queues' | 'requests', opts: { includeRequestDetails: boolean }): string;
  /** Stops timers (the borrowing adjustment loop). */
  stop(): void;
}
