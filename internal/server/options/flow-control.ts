/**
 * The request limits (kube's ServerRunOptions.MaxRequestsInFlight and MaxMutatingRequestsInFlight)
 * and --enable-priority-and-fairness (kube's FeatureOptions): with priority and fairness on, the two
 * limits add up to the server's concurrency limit that the priority levels share; with it off, each
 * caps its kind of request on its own (0: no cap).
 */
import { boolFlag, FlagError, intFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated request limit options. */
export interface FlowControlOptions {
  /** --max-requests-inflight. */
  readonly maxRequestsInFlight: number;
  /** --max-mutating-requests-inflight. */
  readonly maxMutatingRequestsInFlight: number;
  /** --enable-priority-and-fairness. */
  readonly enablePriorityAndFairness: boolean;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly flowControl?: FlowControlOptions;
  }
}

/** kube's defaults. */
export const defaultFlowControlOptions: FlowControlOptions = { maxRequestsInFlight: 400, maxMutatingRequestsInFlight: 200, enablePriorityAndFairness: true };

/** The request limit flags. */
export const flowControlFlags: FlagGroup<'flowControl'> = {
  register(y) {
    y.option('max-requests-inflight', {
      type: 'string',
      default: '400',
      describe:
        "This and --max-mutating-requests-inflight are summed to determine the server's total concurrency limit (which must be positive) if --enable-priority-and-fairness is true. Otherwise, this flag limits the maximum number of non-mutating requests in flight, or a zero value disables the limit completely.",
    });
    y.option('max-mutating-requests-inflight', {
      type: 'string',
      default: '200',
      describe:
        "This and --max-requests-inflight are summed to determine the server's total concurrency limit (which must be positive) if --enable-priority-and-fairness is true. Otherwise, this flag limits the maximum number of mutating requests in flight, or a zero value disables the limit completely.",
    });
    y.option('enable-priority-and-fairness', {
      type: 'string',
      defaultDescription: 'true',
      describe: 'If true, replace the max-in-flight handler with an enhanced one that queues and dispatches with priority and fairness',
    });
  },
  validate(p) {
    const maxRequestsInFlight = intFlag('max-requests-inflight', p['max-requests-inflight'] ?? '400');
    const maxMutatingRequestsInFlight = intFlag('max-mutating-requests-inflight', p['max-mutating-requests-inflight'] ?? '200');
    if (maxRequestsInFlight < 0) throw new FlagError('--max-requests-inflight can not be negative value');
    if (maxMutatingRequestsInFlight < 0) throw new FlagError('--max-mutating-requests-inflight can not be negative value');
    const enablePriorityAndFairness = boolFlag('enable-priority-and-fairness', p['enable-priority-and-fairness'], true);
    if (enablePriorityAndFairness && maxRequestsInFlight + maxMutatingRequestsInFlight <= 0) {
      throw new FlagError(
        `invalid configuration: MaxRequestsInFlight=${maxRequestsInFlight} and MaxMutatingRequestsInFlight=${maxMutatingRequestsInFlight}; they must add up to something positive`,
      );
    }
    return { flowControl: { maxRequestsInFlight, maxMutatingRequestsInFlight, enablePriorityAndFairness } };
  },
};
