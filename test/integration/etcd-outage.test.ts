/**
 * All of etcd unavailable (issue 12's fault): the server neither hangs nor crashes. Reads and
 * writes that need etcd answer 503 or 504 with a metav1.Status within --request-timeout, /readyz
 * fails on its etcd check, and when etcd comes back (same data, same port) the server recovers by
 * itself: writes succeed again, readyz passes, and what was stored before the outage is intact.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startLocalEtcd } from '../../hack/local-etcd.js';
import { useServer, type TestResponse } from '../support/server.js';

const requestTimeoutMs = 3000;
const cms = '/api/v1/namespaces/default/configmaps';

/** Answers a Status with 503 or 504, within the request timeout plus a margin for a loaded machine. */
async function failsCleanly(call: () => Promise<TestResponse>, what: string): Promise<void> {
  const started = Date.now();
  const res = await call();
  const took = Date.now() - started;
  assert.ok(res.status === 503 || res.status === 504, `${what}: ${res.status} ${res.text}`);
  const status = res.json();
  assert.equal(status.kind, 'Status', `${what}: ${res.text}`);
  assert.equal(status.code, res.status);
  assert.ok(typeof status.message === 'string' && status.message.length > 0);
  assert.ok(took < requestTimeoutMs + 5000, `${what} took ${took} ms`);
  // An outage tells clients when to come back (client-go waits for Retry-After on 5xx).
  if (res.status === 503) assert.equal(res.headers['retry-after'], '2');
}

async function until(what: string, fn: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('etcd unavailable', () => {
  const fx = useServer({}, ['--request-timeout=3s', '--etcd-healthcheck-timeout=1s', '--etcd-readycheck-timeout=1s']);

  it('answers 503/504 Statuses without hanging, fails readyz, and recovers when etcd returns', async () => {
    assert.equal((await fx.request('POST', cms, { body: { metadata: { name: 'before' }, data: { k: 'v' } } })).status, 201);
    const port = Number(new URL(fx.etcd.endpoint).port);
    const dataDir = fx.etcd.dataDir;
    await fx.etcd.kill();

    await failsCleanly(() => fx.request('POST', cms, { body: { metadata: { name: 'during' } } }), 'create');
    await failsCleanly(() => fx.request('GET', `${cms}/before`), 'a most-recent get');
    await failsCleanly(() => fx.request('GET', cms), 'a most-recent list');
    await until('readyz to fail', async () => (await fx.request('GET', '/readyz?verbose')).status === 500);
    const readyz = await fx.request('GET', '/readyz?verbose');
    assert.match(readyz.text, /^\[-\]etcd failed: reason withheld$/m);

    // etcd comes back on the same port with the same data.
    const restarted = await startLocalEtcd({ dataDir, clientPort: port });
    fx.etcd = restarted;
    await until('writes to work again', async () => (await fx.request('POST', cms, { body: { metadata: { name: 'after' } } })).status === 201);
    await until('readyz to pass', async () => (await fx.request('GET', '/readyz')).status === 200);
    const before = await fx.request('GET', `${cms}/before`);
    assert.equal(before.status, 200);
    assert.deepEqual(before.json().data, { k: 'v' });
    // Nothing answered with an error was stored.
    assert.equal((await fx.request('GET', `${cms}/during`)).status, 404);
  });
});
