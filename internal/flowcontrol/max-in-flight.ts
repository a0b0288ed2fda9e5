/**
 * kube's WithMaxInFlightLimit, the flow control used when --enable-priority-and-fairness is false:
 * at most --max-requests-inflight non-mutating requests (get, list, watch) and at most
 * --max-mutating-requests-inflight mutating ones (every other verb) execute at once; 0 leaves that
 * kind unlimited. A request beyond its kind's limit is answered at once, never queued: 429 with
 * `Retry-After: 1` and kube's plain-text body (kube writes it with Go's http.Error, not as a
 * metav1.Status). Long-running requests (watches, proxy, exec, attach, log, port-forward) take no
 * seat, and a member of system:masters is served even beyond the limit (without taking a seat), as
 * kube serves its super-admins and loopback clients.
 *
 * A seat is taken when the request passes this filter and given back when its response closes
 * (finished, timed out or abandoned by the client). The filter keeps apiserver_current_inflight_requests
 * (the seats in use, highest per second) and counts refusals in apiserver_dropped_requests_total
 * and, through ctx.terminatedWith, apiserver_request_terminations_total.
 */
import type { Filter } from '../filters/interface.js';
import { isLongRunning } from '../filters/timeout.js';
import type { KubeRegistry } from '../observability/kube-registry.js';
import { mutatingKind, readOnlyKind, type InflightWatermark, type RequestKind } from '../observability/request-metrics.js';
import type { CounterChild, CounterVec } from '../observability/vectors.js';
import type { RequestInfo } from '../request/request-info.js';

/** What the max-in-flight filter needs. */
export interface MaxInFlightDeps {
  /** --max-requests-inflight (0: no limit). */
  readonly maxRequestsInFlight: number;
  /** --max-mutating-requests-inflight (0: no limit). */
  readonly maxMutatingRequestsInFlight: number;
  readonly registry: KubeRegistry;
  /** apiserver_current_inflight_requests' watermark, which this filter then keeps (absent: not reported). */
  readonly watermark?: InflightWatermark;
  /** apiserver_dropped_requests_total (absent: not counted). */
  readonly dropped?: CounterVec;
}

/** kube's Retry-After for requests refused by the max-in-flight limits, in seconds. */
export const maxInFlightRetryAfter = '1';
/** The body of kube's 429 (Go's http.Error adds the newline). */
export const tooManyRequestsMessage = 'Too many requests, please try again later.\n';
/** The group whose members are never refused (kube's user.SystemPrivilegedGroup). */
const privilegedGroup = 'system:masters';

/** Whether info's verb is mutating for the limits (kube: anything but get, list and watch). */
export function requestKindOf(info: RequestInfo): RequestKind {
  const v = info.verb;
  return v === 'get' || v === 'list' || v === 'watch' ? readOnlyKind : mutatingKind;
}

/** kube's WithMaxInFlightLimit; put it between impersonation and authorization. */
export function withMaxInFlightLimit(deps: MaxInFlightDeps): Filter {
  const limits: readonly [number, number] = [deps.maxRequestsInFlight, deps.maxMutatingRequestsInFlight];
  const inUse: [number, number] = [0, 0];
  const watermark = deps.watermark;
  const dropped: readonly [CounterChild, CounterChild] | undefined = deps.dropped ? [deps.dropped.labels('readOnly'), deps.dropped.labels('mutating')] : undefined;
  // One release closure per kind, made once rather than per request.
  const release: readonly [() => void, () => void] = [
    () => {
      inUse[readOnlyKind]--;
      watermark?.end(readOnlyKind);
    },
    () => {
      inUse[mutatingKind]--;
      watermark?.end(mutatingKind);
    },
  ];
  return (_req, res, state) => {
    const info = state.ctx.requestInfo;
    if (isLongRunning(info)) return;
    const kind = requestKindOf(info);
    const limit = limits[kind];
    if (limit === 0) return;
    if (inUse[kind] < limit) {
      inUse[kind]++;
      watermark?.begin(kind);
      state.onClose(release[kind]);
      return;
    }
    if (state.ctx.user.groups.includes(privilegedGroup)) return;
    dropped?.[kind].inc();
    state.ctx.terminatedWith = 429;
    res.statusCode = 429;
    res.setHeader('Retry-After', maxInFlightRetryAfter);
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.end(tooManyRequestsMessage);
  };
}
