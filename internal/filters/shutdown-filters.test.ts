import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { parseRequestInfo } from '../request/request-info.js';
import type { ServerLifecycle } from '../server/lifecycle/interface.js';
import { RequestWaitGroup } from '../server/lifecycle/request-wait-group.js';
import { LifecycleSignals } from '../server/lifecycle/signals.js';
import { WatchWaitGroup } from '../server/lifecycle/watch-wait-group.js';
import type { Filter } from './interface.js';
import { attachRequestContext, type RequestState } from './request-context.js';
import { withRetryAfter } from './retry-after.js';
import { withWaitGroup } from './wait-group.js';
import { withWatchTerminationDuringShutdown } from './watch-termination.js';

interface Fake {
  req: IncomingMessage;
  res: ServerResponse;
  state: RequestState;
  headers: Record<string, string>;
  status(): number;
  body(): string | undefined;
  close(): void;
}

function fake(method: string, url: string, userAgent?: string): Fake {
  const headers: Record<string, string> = {};
  let status = 200;
  let body: string | undefined;
  const closers: Array<() => void> = [];
  const req = { method, url, headers: userAgent ? { 'user-agent': userAgent } : {} } as IncomingMessage;
  const res = {
    set statusCode(c: number) {
      status = c;
    },
    setHeader: (k: string, v: string) => (headers[k.toLowerCase()] = v),
    end: (b: string) => (body = b),
    once: (event: string, fn: () => void) => {
      if (event === 'close') closers.push(fn);
    },
  } as unknown as ServerResponse;
  const state = attachRequestContext(req, res);
  return { req, res, state, headers, status: () => status, body: () => body, close: () => closers.forEach((fn) => fn()) };
}

const lifecycle = (sendRetryAfter: boolean, watches?: WatchWaitGroup): ServerLifecycle => ({
  signals: new LifecycleSignals(),
  requests: new RequestWaitGroup(),
  sendRetryAfter,
  ...(watches ? { watches } : {}),
});

const apply = (filter: Filter | undefined, f: Fake): void => void filter?.(f.req, f.res, f.state);

describe('retry-after filter', () => {
  it('is absent without --shutdown-send-retry-after', () => {
    assert.equal(withRetryAfter(lifecycle(false)), undefined);
  });

  it('once not accepting new requests: 429, Retry-After 5, Connection close, kube\'s text; health, metrics and loopback pass', () => {
    const l = lifecycle(true);
    const filter = withRetryAfter(l);
    const before = fake('GET', '/api/v1/namespaces/default/configmaps');
    apply(filter, before);
    assert.equal(before.body(), undefined, 'served normally until then');
    l.signals.notAcceptingNewRequest.signal();
    const turned = fake('POST', '/api/v1/namespaces/default/configmaps');
    apply(filter, turned);
    assert.equal(turned.status(), 429);
    assert.deepEqual(turned.headers, {
      connection: 'close',
      'retry-after': '5',
      'content-type': 'text/plain; charset=utf-8',
      'x-content-type-options': 'nosniff',
    });
    assert.equal(turned.body(), 'The apiserver is shutting down, please try again later.\n');
    for (const path of ['/readyz', '/livez/ping', '/healthz?verbose', '/metrics']) {
      const exempt = fake('GET', path);
      apply(filter, exempt);
      assert.equal(exempt.body(), undefined, path);
    }
    const loopback = fake('GET', '/api/v1/namespaces', 'kube-apiserver/v1.33.0 (linux/amd64)');
    apply(filter, loopback);
    assert.equal(loopback.body(), undefined);
  });
});

describe('wait-group filter', () => {
  it('counts non-long-running requests until their response closes; watches are not counted', async () => {
    const l = lifecycle(false);
    const filter = withWaitGroup(l.requests);
    const create = fake('POST', '/api/v1/namespaces/default/configmaps');
    apply(filter, create);
    const watch = fake('GET', '/api/v1/namespaces/default/configmaps?watch=true');
    assert.equal(watch.state.ctx.requestInfo.verb, 'watch');
    apply(filter, watch);
    assert.equal(l.requests.count, 1);
    let drained = false;
    const waiting = l.requests.wait().then(() => (drained = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(drained, false);
    create.close();
    await waiting;
  });

  it('once the group waits: 503 "apiserver is shutting down" with Retry-After 1, exempt paths still served', () => {
    const l = lifecycle(false);
    const filter = withWaitGroup(l.requests);
    void l.requests.wait();
    const late = fake('GET', '/api/v1/namespaces');
    apply(filter, late);
    assert.equal(late.status(), 503);
    assert.equal(late.headers['retry-after'], '1');
    assert.equal(late.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(late.body() as string), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'apiserver is shutting down',
      reason: 'ServiceUnavailable',
      code: 503,
    });
    const probe = fake('GET', '/readyz');
    apply(filter, probe);
    assert.equal(probe.body(), undefined);
  });

  it('once the listener closed, every response closes its connection', () => {
    const l = lifecycle(false);
    const filter = withWaitGroup(l.requests);
    const before = fake('GET', '/healthz');
    apply(filter, before);
    assert.equal(before.headers.connection, undefined);
    l.requests.closeConnections = true;
    const after = fake('GET', '/healthz');
    apply(filter, after);
    assert.equal(after.headers.connection, 'close');
  });
});

describe('watch termination filter', () => {
  it('is absent without a grace period', () => {
    assert.equal(withWatchTerminationDuringShutdown(undefined), undefined);
  });

  it('gives each watch its own shutdown signal and turns new watches away once draining', async () => {
    const watches = new WatchWaitGroup();
    const filter = withWatchTerminationDuringShutdown(watches);
    const list = fake('GET', '/api/v1/namespaces/default/configmaps');
    apply(filter, list);
    assert.equal(list.state.ctx.shutdownSignal, undefined, 'only watches');
    const watch = fake('GET', '/api/v1/namespaces/default/configmaps?watch=1');
    apply(filter, watch);
    const signal = watch.state.ctx.shutdownSignal as AbortSignal;
    assert.equal(signal.aborted, false);
    assert.equal(watches.count, 1);
    signal.addEventListener('abort', () => watch.close());
    const drained = await watches.drain(5000);
    assert.deepEqual(drained, { activeWatchesBefore: 1, activeWatchesAfter: 0 });
    const late = fake('GET', '/api/v1/namespaces/default/configmaps?watch=true');
    apply(filter, late);
    assert.equal(late.status(), 503);
  });

  it('parses the request info the filters rely on', () => {
    assert.equal(parseRequestInfo('GET', '/api/v1/watch/namespaces/default/configmaps', new URLSearchParams()).verb, 'watch');
  });
});
