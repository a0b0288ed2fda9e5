/**
 * The request metrics filter (kube's latency tracking and route instrumentation in one place):
 * the first filter, so every answer is counted, 401, 403, 404 and 429 included. When the response
 * closes it records apiserver_request_total, _duration_seconds and (for GET and LIST)
 * apiserver_response_sizes; while a request runs it counts in apiserver_current_inflight_requests
 * (unless the flow control filter keeps that gauge, as kube's max-in-flight filter does) or, when
 * long-running, in apiserver_longrunning_requests; a request the timeout answered, or that a flow
 * control filter refused (ctx.terminatedWith), is a termination, one the timeout cut off after the
 * response had started an abort.
 *
 * Labels stay bounded whatever clients send: a (sub)resource the server does not serve is
 * labelled with empty group, version, resource and subresource (keeping the group and version
 * when that group version is served), a non-resource path with its known root or "", an unknown
 * method "other". The children of each label tuple are resolved once and kept, so recording is a
 * few map lookups and field updates.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { cleanDryRun, cleanScope, isReadOnly, nonResourceLabel, reportedVerb, routeScope } from '../observability/request-labels.js';
import { mutatingKind, readOnlyKind, type RequestMetrics } from '../observability/request-metrics.js';
import type { CounterChild, GaugeChild, HistogramChild } from '../observability/vectors.js';
import type { RequestInfo } from '../request/request-info.js';
import type { Filter } from './interface.js';
import type { RequestState } from './request-context.js';
import { isLongRunning } from './timeout.js';

/** What the server serves, to tell a real (sub)resource from anything a client may ask for. */
export interface ServedResources {
  /** Defined when group/version/resource/subresource is served. */
  lookup(group: string, version: string, resource: string, subresource: string): unknown;
  servesGroupVersion(group: string, version: string): boolean;
}

/** What withRequestMetrics records into and checks against. */
export interface RequestMetricsDeps {
  readonly metrics: RequestMetrics;
  readonly served: ServedResources;
  /**
   * false when the flow control filter maintains apiserver_current_inflight_requests itself (kube's
   * max-in-flight filter counts only the requests that took a seat); default true.
   */
  readonly countInflight?: boolean;
}

/** The children of one verb, dry_run and scope of a target. */
interface ChildSet {
  readonly verb: string;
  readonly dryRun: string;
  readonly scope: string;
  readonly duration: HistogramChild;
  sizes: HistogramChild | undefined;
  readonly codes: Map<number, CounterChild>;
}

/** Slots of the bounded label values, so a child set is found by index rather than by a joined key. */
const scopeSlots: Readonly<Record<string, number>> = { '': 0, resource: 1, namespace: 2, cluster: 3 };
const dryRunSlots: Readonly<Record<string, number>> = { '': 0, All: 1, invalid: 2 };
const verbSlots: ReadonlyMap<string, number> = new Map(
  ['GET', 'LIST', 'WATCH', 'POST', 'PUT', 'PATCH', 'APPLY', 'DELETE', 'CONNECT', 'other', 'CREATE', 'DELETECOLLECTION', 'PROXY', 'UPDATE', 'WATCHLIST'].map((v, i) => [v, i]),
);

/** The group, version, resource, subresource and component labels of a request, with its children. */
class Target {
  /** By (verb slot * 3 + dry_run slot) * 4 + scope slot. */
  readonly sets: Array<ChildSet | undefined> = [];
  readonly longRunning = new Map<string, GaugeChild>();
  constructor(
    readonly group: string,
    readonly version: string,
    readonly resource: string,
    readonly subresource: string,
    readonly component: string,
  ) {}
}

/** Resolves requests to bounded targets; only served and folded targets are ever kept. */
class Targets {
  /** Served (sub)resources by group, then version, resource and subresource. */
  private readonly served = new Map<string, Map<string, Map<string, Map<string, Target>>>>();
  private readonly folded = new Map<string, Target>();

  constructor(private readonly surface: ServedResources) {}

  resolve(info: RequestInfo): Target {
    if (!info.isResourceRequest) {
      const root = nonResourceLabel(info.path);
      return this.fold(`n/${root}`, '', '', root, '');
    }
    const g = info.apiGroup;
    const v = info.apiVersion;
    const hit = this.served.get(g)?.get(v)?.get(info.resource)?.get(info.subresource);
    if (hit) return hit;
    if (this.surface.lookup(g, v, info.resource, info.subresource) !== undefined) {
      const t = new Target(g, v, info.resource, info.subresource, 'apiserver');
      const byVersion = this.served.get(g) ?? this.served.set(g, new Map()).get(g)!;
      const byResource = byVersion.get(v) ?? byVersion.set(v, new Map()).get(v)!;
      const bySubresource = byResource.get(info.resource) ?? byResource.set(info.resource, new Map()).get(info.resource)!;
      bySubresource.set(info.subresource, t);
      return t;
    }
    return this.surface.servesGroupVersion(g, v) ? this.fold(`gv/${g}/${v}`, g, v, '', 'apiserver') : this.fold('unknown', '', '', '', 'apiserver');
  }

  private fold(key: string, group: string, version: string, subresource: string, component: string): Target {
    let t = this.folded.get(key);
    if (!t) {
      t = new Target(group, version, '', subresource, component);
      this.folded.set(key, t);
    }
    return t;
  }
}

function childSet(m: RequestMetrics, t: Target, verb: string, dryRun: string, scope: string): ChildSet {
  const slot = (((verbSlots.get(verb) as number) * 3 + (dryRunSlots[dryRun] as number)) << 2) + (scopeSlots[scope] as number);
  let set = t.sets[slot];
  if (!set) {
    set = { verb, dryRun, scope, duration: m.duration.labels(verb, dryRun, t.group, t.version, t.resource, t.subresource, scope, t.component), sizes: undefined, codes: new Map() };
    t.sets[slot] = set;
  }
  return set;
}

function longRunningChild(m: RequestMetrics, t: Target, verb: string, scope: string): GaugeChild {
  const key = `${verb}|${scope}`;
  let g = t.longRunning.get(key);
  if (!g) {
    g = m.longRunning.labels(verb, t.group, t.version, t.resource, t.subresource, scope, t.component);
    t.longRunning.set(key, g);
  }
  return g;
}

/** The body size: Content-Length when the response had one, otherwise what went down the socket. */
function responseSize(res: ServerResponse, socket: Socket | undefined, startBytes: number): number {
  const declared = res.getHeader('content-length');
  if (declared !== undefined) return Number(declared);
  return socket ? Math.max(0, socket.bytesWritten - startBytes) : 0;
}

function record(m: RequestMetrics, res: ServerResponse, state: RequestState, t: Target, set: ChildSet, started: number, socket: Socket | undefined, startBytes: number): void {
  const code = res.statusCode;
  let counter = set.codes.get(code);
  if (!counter) {
    counter = m.total.labels(set.verb, set.dryRun, t.group, t.version, t.resource, t.subresource, set.scope, t.component, String(code));
    set.codes.set(code, counter);
  }
  counter.inc();
  set.duration.observe((performance.now() - started) / 1000);
  if (set.verb === 'GET' || set.verb === 'LIST') {
    set.sizes ??= m.responseSizes.labels(set.verb, t.group, t.version, t.resource, t.subresource, set.scope, t.component);
    set.sizes.observe(responseSize(res, socket, startBytes));
  }
  const terminatedWith = state.ctx.terminatedWith;
  if (terminatedWith !== undefined) m.terminations.labels(set.verb, t.group, t.version, t.resource, t.subresource, set.scope, t.component, String(terminatedWith)).inc();
  const deadline = state.ctx.deadline;
  if (deadline !== undefined && Date.now() >= deadline) {
    if (!res.writableFinished) m.aborts.labels(set.verb, t.group, t.version, t.resource, t.subresource, set.scope).inc();
    else if (code === 504) m.terminations.labels(set.verb, t.group, t.version, t.resource, t.subresource, set.scope, t.component, '504').inc();
  }
}

/** The request metrics filter; put it first. */
export function withRequestMetrics(deps: RequestMetricsDeps): Filter {
  const m = deps.metrics;
  const targets = new Targets(deps.served);
  const countInflight = deps.countInflight ?? true;
  return (req, res, state) => {
    const started = performance.now();
    const info = state.ctx.requestInfo;
    const method = req.method ?? 'GET';
    const contentType = req.headers['content-type'];
    const t = targets.resolve(info);
    const scope = routeScope(info);
    const set = childSet(m, t, reportedVerb(method, info, scope, state.query, contentType), cleanDryRun(req.url ?? '', state.query), scope);
    // A streamed body has no Content-Length: its size is what the socket sent meanwhile (not on
    // HTTP/2, whose connection carries other streams' bytes too).
    const socket = method === 'GET' && req.httpVersionMajor === 1 ? req.socket : undefined;
    const startBytes = socket ? socket.bytesWritten : 0;
    if (isLongRunning(info)) {
      const lrScope = cleanScope(info);
      const gauge = longRunningChild(m, t, reportedVerb(method, info, lrScope, state.query, contentType), lrScope);
      gauge.inc();
      state.onClose(() => {
        gauge.dec();
        record(m, res, state, t, set, started, socket, startBytes);
      });
      return;
    }
    if (!countInflight) {
      state.onClose(() => record(m, res, state, t, set, started, socket, startBytes));
      return;
    }
    const kind = isReadOnly(info) ? readOnlyKind : mutatingKind;
    m.inflight.begin(kind);
    state.onClose(() => {
      m.inflight.end(kind);
      record(m, res, state, t, set, started, socket, startBytes);
    });
  };
}
