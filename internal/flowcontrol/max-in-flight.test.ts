import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import type { RequestState } from '../filters/request-context.js';
import { KubeRegistry } from '../observability/kube-registry.js';
import { createRequestMetrics } from '../observability/request-metrics.js';
import { anonymousUser, type RequestContext, type UserInfo } from '../request/context.js';
import { parseRequestInfo } from '../request/request-info.js';
import { withMaxInFlightLimit } from './max-in-flight.js';

interface FakeResponse {
  statusCode: number;
  headers: Record<string, string>;
  body?: string;
  setHeader(k: string, v: string): void;
  end(b?: string): void;
}

/** One request through the filter: its response, its context and a way to close it. */
function run(filter: ReturnType<typeof withMaxInFlightLimit>, method: string, path: string, user: UserInfo = anonymousUser) {
  const closers: Array<() => void> = [];
  const url = new URL(path, 'https://x');
  const ctx = { requestInfo: parseRequestInfo(method, url.pathname, url.searchParams), user, warnings: [] } as unknown as RequestContext;
  const state = { ctx, path: url.pathname, query: url.searchParams, abort: () => undefined, onClose: (fn: () => void) => closers.push(fn) } as RequestState;
  const res: FakeResponse = {
    statusCode: 200,
    headers: {},
    setHeader(k, v) {
      this.headers[k.toLowerCase()] = v;
    },
    end(b) {
      this.body = b;
    },
  };
  void filter({ method } as IncomingMessage, res as unknown as ServerResponse, state);
  return { res, ctx, close: () => closers.forEach((fn) => fn()) };
}

function setup(maxRequestsInFlight: number, maxMutatingRequestsInFlight: number) {
  const registry = new KubeRegistry();
  const m = createRequestMetrics(registry);
  const filter = withMaxInFlightLimit({ maxRequestsInFlight, maxMutatingRequestsInFlight, registry, watermark: m.inflight, dropped: m.dropped });
  const metric = async (re: RegExp): Promise<string | undefined> => re.exec(await registry.metrics())?.[1];
  return { filter, m, metric };
}

describe('withMaxInFlightLimit', () => {
  it('refuses the request beyond the non-mutating limit with 429, Retry-After: 1 and kube\'s text', async () => {
    const { filter, m, metric } = setup(2, 1);
    const a = run(filter, 'GET', '/api/v1/pods');
    const b = run(filter, 'GET', '/api/v1/namespaces/x/pods/p');
    assert.equal(a.res.body, undefined);
    assert.equal(b.res.body, undefined);
    const c = run(filter, 'GET', '/api/v1/pods');
    assert.equal(c.res.statusCode, 429);
    assert.equal(c.res.headers['retry-after'], '1');
    assert.equal(c.res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(c.res.body, 'Too many requests, please try again later.\n');
    assert.equal(c.ctx.terminatedWith, 429);
    // Mutating requests have their own limit.
    const post = run(filter, 'POST', '/api/v1/namespaces/x/configmaps');
    assert.equal(post.res.body, undefined);
    assert.equal(run(filter, 'DELETE', '/api/v1/namespaces/x/configmaps/c').res.statusCode, 429);
    m.inflight.publish();
    assert.equal(await metric(/^apiserver_current_inflight_requests\{request_kind="readOnly"\} (\S+)$/m), '2');
    assert.equal(await metric(/^apiserver_current_inflight_requests\{request_kind="mutating"\} (\S+)$/m), '1');
    assert.equal(await metric(/^apiserver_dropped_requests_total\{request_kind="readOnly"\} (\S+)$/m), '1');
    assert.equal(await metric(/^apiserver_dropped_requests_total\{request_kind="mutating"\} (\S+)$/m), '1');
    // A seat comes back when its response closes.
    a.close();
    assert.equal(run(filter, 'GET', '/api/v1/pods').res.body, undefined);
    assert.equal(run(filter, 'GET', '/api/v1/pods').res.statusCode, 429);
    m.inflight.stop();
  });

  it('exempts long-running requests and, beyond the limit, system:masters', () => {
    const { filter, m } = setup(1, 1);
    run(filter, 'GET', '/api/v1/pods');
    assert.equal(run(filter, 'GET', '/api/v1/pods?watch=true').res.body, undefined);
    assert.equal(run(filter, 'GET', '/api/v1/namespaces/x/pods/p/log').res.body, undefined);
    assert.equal(run(filter, 'POST', '/api/v1/namespaces/x/pods/p/exec').res.body, undefined, 'exec is not a mutating seat either');
    const admin = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };
    assert.equal(run(filter, 'GET', '/api/v1/pods', admin).res.body, undefined);
    assert.equal(run(filter, 'GET', '/api/v1/pods', { name: 'u', groups: ['system:authenticated'] }).res.statusCode, 429);
    m.inflight.stop();
  });

  it('leaves a kind whose limit is 0 unlimited, and counts non-resource GETs as read-only', () => {
    const { filter, m } = setup(0, 1);
    for (let i = 0; i < 50; i++) assert.equal(run(filter, 'GET', '/api/v1/pods').res.body, undefined);
    run(filter, 'PUT', '/api/v1/namespaces/x/configmaps/c');
    assert.equal(run(filter, 'PATCH', '/api/v1/namespaces/x/configmaps/c').res.statusCode, 429);
    const limited = setup(1, 0);
    run(limited.filter, 'GET', '/healthz');
    assert.equal(run(limited.filter, 'GET', '/version').res.statusCode, 429);
    for (let i = 0; i < 50; i++) assert.equal(run(limited.filter, 'POST', '/api/v1/namespaces').res.body, undefined);
    m.inflight.stop();
    limited.m.inflight.stop();
  });
});
