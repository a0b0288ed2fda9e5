/**
 * kube's WithPriorityAndFairness: every request but the long-running ones other than watches is
 * classified, its work estimated, and admitted by the dispatcher (waiting in its flow's queue when
 * its level is busy). The response names the FlowSchema and level (X-Kubernetes-PF-FlowSchema-UID,
 * X-Kubernetes-PF-PriorityLevel-UID) before the handler writes anything. A request that is not
 * admitted is answered 429 with kube's text and the level's Retry-After. Seats are given back when
 * the response closes; a watch gives them back as soon as its initial events are written (the
 * watch handler calls ctx.watchInitialized), and counts as a watcher of its resource until it ends.
 */
import type { ServerResponse } from 'node:http';
import { isLongRunning } from '../../filters/timeout.js';
import type { Filter } from '../../filters/interface.js';
import type { RequestState } from '../../filters/request-context.js';
import type { RequestContext, UserInfo } from '../../request/context.js';
import type { RequestInfo } from '../../request/request-info.js';
import type { AdmitRequest, Classification, FlowDispatcher, WorkEstimate } from '../interface.js';
import type { ConfigController } from './config-controller.js';
import type { DroppedRequestsTracker } from './retry-after.js';
import type { WatchTracker } from './watch-tracker.js';
import type { WorkEstimator } from './work-estimator.js';

/** kube's flowcontrol.ResponseHeaderMatchedFlowSchemaUID and ...PriorityLevelConfigurationUID. */
export const flowSchemaUIDHeader = 'X-Kubernetes-PF-FlowSchema-UID';
export const priorityLevelUIDHeader = 'X-Kubernetes-PF-PriorityLevel-UID';
const tooManyRequestsText = 'Too many requests, please try again later.\n';
const nonMutatingVerbs = new Set(['get', 'list', 'watch']);

/** What the filter uses. */
export interface PriorityAndFairnessFilterDeps {
  readonly config: Pick<ConfigController, 'classify'>;
  readonly dispatcher: Pick<FlowDispatcher, 'admit'>;
  readonly estimate: WorkEstimator;
  readonly watches: WatchTracker;
  readonly dropped: DroppedRequestsTracker;
  /** kube's RecordDroppedRequest (apiserver_dropped_requests_total by request kind); absent: not counted. */
  readonly recordDropped?: (mutating: boolean) => void;
}

/**
 * The dispatcher's request. A class, not a literal, so the hot path builds one small object; the
 * signal is read only by a request that has to wait (the context makes its AbortController lazily).
 */
class Admission implements AdmitRequest {
  readonly user: UserInfo;
  readonly requestInfo: RequestInfo;
  readonly mutating: boolean;
  constructor(
    readonly classification: Classification,
    readonly work: WorkEstimate,
    private readonly ctx: RequestContext,
  ) {
    this.user = ctx.user;
    this.requestInfo = ctx.requestInfo;
    this.mutating = !nonMutatingVerbs.has(ctx.requestInfo.verb);
  }
  get signal(): AbortSignal {
    return this.ctx.signal;
  }
}

/** Go's http.Error after kube's Retry-After header. */
function tooManyRequests(res: ServerResponse, retryAfter: number): void {
  res.statusCode = 429;
  res.setHeader('Retry-After', String(retryAfter));
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(tooManyRequestsText);
}

/** Builds the filter. */
export function withPriorityAndFairness(deps: PriorityAndFairnessFilterDeps): Filter {
  return async (_req, res, state: RequestState) => {
    const ctx = state.ctx;
    const ri = ctx.requestInfo;
    const isWatch = ri.verb === 'watch';
    if (!isWatch && isLongRunning(ri)) return;
    const classification = deps.config.classify(ctx.user, ri);
    res.setHeader(flowSchemaUIDHeader, classification.flowSchemaUID);
    res.setHeader(priorityLevelUIDHeader, classification.priorityLevelUID);
    const result = await deps.dispatcher.admit(new Admission(classification, deps.estimate(ri, state.query, classification.priorityLevelName, classification.flowSchemaName), ctx));
    if (!result.admitted) {
      // Timed out (504 already written) or the client left: nothing more to say.
      if (res.headersSent || res.writableEnded) return;
      deps.dropped.record(classification.priorityLevelName);
      // kube's RecordDroppedRequest and RecordRequestTermination (apiserver_request_terminations_total, code 429).
      deps.recordDropped?.(!nonMutatingVerbs.has(ri.verb));
      ctx.terminatedWith = 429;
      tooManyRequests(res, deps.dropped.retryAfter(classification.priorityLevelName));
      return;
    }
    if (!isWatch) {
      // The response may have closed while the request waited: its close came and went.
      if (res.closed) result.finish();
      else state.onClose(() => result.finish());
      return;
    }
    const forget = deps.watches.register(ri, state.query);
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      result.finish();
    };
    ctx.watchInitialized = finish;
    const done = (): void => {
      forget();
      finish();
    };
    if (res.closed) done();
    else state.onClose(done);
  };
}
