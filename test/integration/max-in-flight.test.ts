/**
 * The max-in-flight limits with priority and fairness off (--enable-priority-and-fairness=false
 * --max-requests-inflight=400 --max-mutating-requests-inflight=5): requests are made slow by an
 * authorization webhook that holds its answers (authorization runs after the limit, so a waiting
 * request keeps its seat). Exactly the excess is refused with 429 and Retry-After: 1; mutating
 * requests have their own limit; watches and system:masters are never refused.
 */
import assert from 'node:assert/strict';
import { Agent, request as httpsRequest } from 'node:https';
import { after, describe, it } from 'node:test';
import { startHeldAuthorizer, type HeldAuthorizer } from '../support/held-authorizer.js';
import { parsePromText, sumOf } from '../support/prom-text.js';
import { useServer, type TestResponse } from '../support/server.js';
import { bearer, tokenAuthFileFlag } from '../support/static-tokens.js';
import { openWatch } from '../support/watch.js';

const admin = bearer('admin-token');

describe('--max-requests-inflight with --enable-priority-and-fairness=false', () => {
  let authz: HeldAuthorizer;
  const fx = useServer({}, async () => {
    authz = await startHeldAuthorizer();
    return [
      '--enable-priority-and-fairness=false',
      '--max-requests-inflight=400',
      '--max-mutating-requests-inflight=5',
      await tokenAuthFileFlag([{ token: 'admin-token', name: 'admin', uid: 'a', groups: ['system:masters'] }]),
      ...(await authz.flags(fx.dir)),
    ];
  });
  // One connection per concurrent request: HTTP/1.1 has one request in flight per connection.
  const agent = new Agent({ keepAlive: true, maxSockets: 512 });
  after(async () => {
    agent.destroy();
    await authz?.close();
  });

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = httpsRequest(
        { host: '127.0.0.1', port: fx.port, path, method, ca: fx.ca, servername: 'localhost', agent, headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const b = Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: b, text: b.toString('utf8'), json: () => JSON.parse(b.toString('utf8')) });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const metrics = async () => parsePromText((await call('GET', '/metrics', undefined, admin)).text);
  /** Fires requests, waits for the first answer (the refusal), releases the webhook, returns every answer. */
  const flood = async (n: number, send: (i: number) => Promise<TestResponse>, whileHeld?: () => Promise<void>) => {
    const all = Array.from({ length: n }, (_, i) => send(i));
    const first = await Promise.race(all);
    assert.equal(first.status, 429, `the first answer is the refusal (${first.status} ${first.text})`);
    await whileHeld?.();
    authz.release();
    return Promise.all(all);
  };

  it('reports kube\'s max-in-flight-filter post-start hook instead of priority and fairness\'s', async () => {
    const ready = await call('GET', '/readyz?verbose', undefined, admin);
    assert.match(ready.text, /^\[\+\]poststarthook\/max-in-flight-filter ok$/m);
    assert.doesNotMatch(ready.text, /priority-and-fairness-filter/);
  });

  it('refuses exactly the 401st concurrent slow list with 429 and Retry-After: 1', async () => {
    const before = await metrics();
    authz.holdNamespace = 'held-lists';
    const answers = await flood(
      401,
      () => call('GET', '/api/v1/namespaces/held-lists/configmaps'),
      async () => {
        // While 400 lists hold their seats: a watch is long-running and takes none; system:masters is served beyond the limit.
        const watch = await openWatch(fx, '/api/v1/namespaces/free/configmaps?watch=true', admin);
        assert.equal(watch.status, 200);
        watch.close();
        const anonymousWatch = await openWatch(fx, '/api/v1/namespaces/free/configmaps?watch=true&timeoutSeconds=1');
        assert.equal(anonymousWatch.status, 200, 'watches are exempt');
        anonymousWatch.close();
        assert.equal((await call('GET', '/api/v1/namespaces/free/configmaps')).status, 429, 'other lists are refused while the seats are held');
        assert.equal((await call('GET', '/api/v1/namespaces/free/configmaps', undefined, admin)).status, 200, 'system:masters are served');
        // Mutating requests have their own limit.
        assert.equal((await call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'while-reads-wait' } })).status, 201);
        // The gauge reports the highest seat count of the last second: the 400 held lists.
        let gauge = 0;
        for (let i = 0; i < 30 && gauge !== 400; i++) {
          await new Promise((r) => setTimeout(r, 100));
          gauge = sumOf(await metrics(), 'apiserver_current_inflight_requests', { request_kind: 'readOnly' });
        }
        assert.equal(gauge, 400);
      },
    );
    const refused = answers.filter((a) => a.status === 429);
    assert.equal(refused.length, 1);
    assert.equal(answers.filter((a) => a.status === 200).length, 400);
    assert.equal(refused[0]?.headers['retry-after'], '1');
    assert.equal(refused[0]?.text, 'Too many requests, please try again later.\n');
    const m = await metrics();
    const delta = (name: string, labels: Record<string, string>) => sumOf(m, name, labels) - sumOf(before, name, labels);
    assert.equal(delta('apiserver_dropped_requests_total', { request_kind: 'readOnly' }), 2);
    assert.equal(delta('apiserver_request_terminations_total', { verb: 'LIST', resource: 'configmaps', code: '429' }), 2);
  });

  it('limits mutating requests to --max-mutating-requests-inflight on their own', async () => {
    assert.equal((await call('POST', '/api/v1/namespaces', { metadata: { name: 'held-writes' } }, admin)).status, 201);
    authz.holdNamespace = 'held-writes';
    const answers = await flood(
      6,
      (i) => call('POST', '/api/v1/namespaces/held-writes/configmaps', { metadata: { name: `c${i}` } }),
      async () => {
        assert.equal((await call('GET', '/api/v1/namespaces/free/configmaps')).status, 200, 'reads are not limited by the mutating seats');
        assert.equal((await call('DELETE', '/api/v1/namespaces/default/configmaps/while-reads-wait')).status, 429);
      },
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 201, 201, 201, 201, 429]);
    // The refused create never reached storage: five of the six config maps exist.
    const list = await call('GET', '/api/v1/namespaces/held-writes/configmaps', undefined, admin);
    assert.equal(list.json().items.filter((c: { metadata: { name: string } }) => /^c\d$/.test(c.metadata.name)).length, 5);
    // Seats came back when the responses closed.
    assert.equal((await call('DELETE', '/api/v1/namespaces/default/configmaps/while-reads-wait')).status, 200);
  });
});
