import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import type { RequestState } from '../../filters/request-context.js';
import type { RequestContext } from '../../request/context.js';
import { parseRequestInfo } from '../../request/request-info.js';
import type { AdmitRequest, AdmitResult, Classification } from '../interface.js';
import { withPriorityAndFairness } from './filter.js';
import { DroppedRequestsTracker } from './retry-after.js';
import { WatchTracker } from './watch-tracker.js';

const classification: Classification = { flowSchemaName: 'fs', flowSchemaUID: 'fs-uid', priorityLevelName: 'pl', priorityLevelUID: 'pl-uid', flowDistinguisher: '', exempt: false };

function fakeResponse() {
  const headers: Record<string, string> = {};
  const res = {
    statusCode: 200,
    headersSent: false,
    writableEnded: false,
    closed: false,
    body: '',
    headers,
    setHeader(k: string, v: string) {
      headers[k.toLowerCase()] = v;
    },
    end(text?: string) {
      this.body = text ?? '';
      this.headersSent = true;
      this.writableEnded = true;
    },
  };
  return res;
}

function setup(answer: (req: AdmitRequest) => AdmitResult) {
  const admitted: AdmitRequest[] = [];
  const watches = new WatchTracker();
  const filter = withPriorityAndFairness({
    config: { classify: () => classification },
    dispatcher: { admit: async (r) => (admitted.push(r), answer(r)) },
    estimate: () => ({ initialSeats: 3, finalSeats: 0, additionalLatencyMs: 0 }),
    watches,
    dropped: new DroppedRequestsTracker(),
  });
  const call = async (method: string, path: string, query = '') => {
    const q = new URLSearchParams(query);
    const closers: Array<() => void> = [];
    const ctx = { requestInfo: parseRequestInfo(method, path, q), user: { name: 'u', groups: [] }, warnings: [], signal: new AbortController().signal } as unknown as RequestContext;
    const state = { ctx, path, query: q, abort: () => undefined, onClose: (fn: () => void) => closers.push(fn) } as RequestState;
    const res = fakeResponse();
    await filter({} as IncomingMessage, res as unknown as ServerResponse, state);
    return { res, ctx, close: () => closers.forEach((f) => f()) };
  };
  return { call, admitted, watches };
}

describe('APF filter', () => {
  it('sets the headers, admits with the estimate and finishes when the response closes', async () => {
    let finished = 0;
    const { call, admitted } = setup(() => ({ admitted: true, finish: () => finished++ }));
    const { res, close } = await call('POST', '/api/v1/namespaces/a/configmaps');
    assert.equal(res.headers['x-kubernetes-pf-flowschema-uid'], 'fs-uid');
    assert.equal(res.headers['x-kubernetes-pf-prioritylevel-uid'], 'pl-uid');
    assert.equal(res.headersSent, false, 'the handler answers');
    assert.equal(admitted[0]?.work.initialSeats, 3);
    assert.equal(admitted[0]?.mutating, true);
    assert.equal(finished, 0);
    close();
    assert.equal(finished, 1);
  });

  it('answers 429 with kube\'s text and Retry-After when not admitted', async () => {
    const { call } = setup(() => ({ admitted: false, reason: 'queue-full' }));
    const { res } = await call('GET', '/api/v1/pods');
    assert.equal(res.statusCode, 429);
    assert.equal(res.body, 'Too many requests, please try again later.\n');
    assert.equal(res.headers['retry-after'], '1');
    assert.equal(res.headers['x-kubernetes-pf-flowschema-uid'], 'fs-uid');
  });

  it('lets long-running requests other than watches through untouched', async () => {
    const { call, admitted } = setup(() => ({ admitted: true, finish: () => undefined }));
    const { res } = await call('POST', '/api/v1/namespaces/a/pods/p/exec');
    assert.equal(admitted.length, 0);
    assert.equal(res.headers['x-kubernetes-pf-flowschema-uid'], undefined);
  });

  it('a watch gives its seats back once initialized and counts as a watcher until it ends', async () => {
    let finished = 0;
    const { call, watches } = setup(() => ({ admitted: true, finish: () => finished++ }));
    const { ctx, close } = await call('GET', '/api/v1/namespaces/a/configmaps', 'watch=1');
    assert.equal(watches.interestedWatchCount(ctx.requestInfo), 1);
    ctx.watchInitialized?.();
    ctx.watchInitialized?.();
    assert.equal(finished, 1);
    close();
    assert.equal(finished, 1, 'finished once');
    assert.equal(watches.interestedWatchCount(ctx.requestInfo), 0);
  });
});
