import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { parseRequestInfo } from '../request/request-info.js';
import type { RequestState } from './request-context.js';
import { armTimeout, isLongRunning } from './timeout.js';

function state(method: string, path: string, query = '') {
  const closers: Array<() => void> = [];
  let aborted = false;
  const q = new URLSearchParams(query);
  const s = {
    ctx: { requestInfo: parseRequestInfo(method, path, q) },
    query: q,
    path,
    abort: () => (aborted = true),
    onClose: (fn: () => void) => closers.push(fn),
  } as unknown as RequestState;
  return { s, aborted: () => aborted, close: () => closers.forEach((f) => f()) };
}

describe('the request timeout', () => {
  it('aborts the connection of an answer already under way instead of writing a 504 into it', async () => {
    const st = state('POST', '/api/v1/namespaces/x/configmaps', 'timeout=20ms');
    let destroyed = false;
    let ended = false;
    const res = { headersSent: true, writableEnded: false, destroy: () => (destroyed = true), end: () => (ended = true) } as unknown as ServerResponse;
    armTimeout({ headers: {} } as IncomingMessage, res, st.s, 60_000);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(st.aborted(), true);
    assert.equal(destroyed, true);
    assert.equal(ended, false);
  });

  it('sets the deadline from the shorter of --request-timeout and ?timeout=, and none for long-running requests', () => {
    const short = state('GET', '/api/v1/pods', 'timeout=5s');
    const before = Date.now();
    armTimeout({ headers: {} } as IncomingMessage, { writableEnded: true } as ServerResponse, short.s, 60_000);
    const deadline = short.s.ctx.deadline as number;
    assert.ok(deadline >= before + 5000 && deadline < before + 5500);
    short.close();
    const watch = state('GET', '/api/v1/pods', 'watch=true');
    armTimeout({ headers: {} } as IncomingMessage, {} as ServerResponse, watch.s, 60_000);
    assert.equal(watch.s.ctx.deadline, undefined);
    assert.equal(isLongRunning(parseRequestInfo('POST', '/api/v1/namespaces/x/pods/p/exec', new URLSearchParams())), true);
  });
});
