/**
 * Request timeouts as kube enforces them, with real slow parts rather than test hooks: an
 * authorization webhook that holds its answers (the request waits before its handler runs) and
 * a blocking audit webhook that is slow to take a write's ResponseComplete event (the write is in
 * etcd, its answer waits). --request-timeout and ?timeout= answer 504 with kube's Status when the
 * handler has not answered; a write that reached etcd is neither undone nor repeated;
 * --min-request-timeout gives each watch a random lifetime between it and twice it, and
 * timeoutSeconds overrides that.
 */
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { after, describe, it } from 'node:test';
import { startAuditWebhookReceiver, type AuditWebhookReceiver } from '../support/audit-webhook-receiver.js';
import { tempDir, writeTemp } from '../support/client-certs.js';
import { startHeldAuthorizer, type HeldAuthorizer } from '../support/held-authorizer.js';
import { useServer } from '../support/server.js';
import { openWatch } from '../support/watch.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('request timeouts', () => {
  let authz: HeldAuthorizer;
  let audit: AuditWebhookReceiver;
  const fx = useServer({ requestTimeoutMs: 2000, minRequestTimeoutSeconds: 1 }, async () => {
    authz = await startHeldAuthorizer();
    audit = await startAuditWebhookReceiver();
    const dir = await tempDir('capstan-timeouts-');
    // Only config maps in "audited" are audited, and only at ResponseComplete: the slow backend
    // holds back nothing but the answers of those writes, after they reached etcd.
    const policy = await writeTemp(
      dir,
      'audit-policy.yaml',
      ['apiVersion: audit.k8s.io/v1', 'kind: Policy', 'omitStages: ["RequestReceived"]', 'rules:', '- level: Metadata', '  namespaces: ["audited"]', '  resources: [{group: "", resources: ["configmaps"]}]', '- level: None', ''].join('\n'),
    );
    return [...(await authz.flags(fx.dir)), `--audit-policy-file=${policy}`, `--audit-webhook-config-file=${await audit.writeKubeconfig(dir)}`, '--audit-webhook-mode=blocking'];
  });
  after(async () => {
    await authz?.close();
    await audit?.stop();
  });

  it('answers 504 with kube\'s Status when the handler exceeds --request-timeout or ?timeout=', async () => {
    authz.holdNamespace = 'slow';
    let started = Date.now();
    const list = await fx.request('GET', '/api/v1/namespaces/slow/configmaps');
    const listMs = Date.now() - started;
    assert.equal(list.status, 504);
    assert.ok(listMs >= 1900 && listMs < 3500, `--request-timeout=2s: answered after ${listMs} ms`);
    assert.match(String(list.headers['content-type']), /^application\/json/);
    assert.deepEqual(list.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
      reason: 'Timeout',
      details: {},
      code: 504,
    });
    started = Date.now();
    const create = await fx.request('POST', '/api/v1/namespaces/slow/configmaps?timeout=500ms', { body: { metadata: { name: 'late' } } });
    const createMs = Date.now() - started;
    assert.equal(create.status, 504);
    assert.ok(createMs >= 450 && createMs < 1500, `?timeout=500ms: answered after ${createMs} ms`);
    // The authorizer answers after the deadline: the request was answered, its handler never runs.
    authz.release();
    await sleep(300);
    assert.equal((await fx.request('GET', '/api/v1/namespaces/slow/configmaps/late')).status, 404);
  });

  it('leaves a write that reached etcd in place, once, when its answer misses the deadline', async () => {
    assert.equal((await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'audited' } } })).status, 201);
    const watch = await openWatch(fx, '/api/v1/namespaces/audited/configmaps?watch=true&resourceVersion=0&fieldSelector=metadata.name%3Dkept');
    audit.delayMs = 2500;
    const started = Date.now();
    // The answer had started (201) when the deadline passed: kube aborts the connection.
    const outcome = await new Promise<string>((resolve) => {
      const body = Buffer.from(JSON.stringify({ metadata: { name: 'kept' }, data: { a: '1' } }));
      const req = httpsRequest(
        { host: '127.0.0.1', port: fx.port, path: '/api/v1/namespaces/audited/configmaps?timeout=1s', method: 'POST', ca: fx.ca, servername: 'localhost', headers: { 'content-type': 'application/json', 'content-length': String(body.length) } },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () => resolve(`complete ${res.statusCode}`));
          res.on('error', () => resolve(`aborted ${res.statusCode}`));
          res.on('aborted', () => resolve(`aborted ${res.statusCode}`));
        },
      );
      req.on('error', (err) => resolve(`aborted (${(err as NodeJS.ErrnoException).code})`));
      req.end(body);
    });
    const ms = Date.now() - started;
    assert.match(outcome, /^aborted/, outcome);
    assert.ok(ms >= 950 && ms < 2400, `aborted at the deadline, after ${ms} ms`);
    audit.delayMs = 0;
    const got = await fx.request('GET', '/api/v1/namespaces/audited/configmaps/kept');
    assert.equal(got.status, 200, 'the write is not undone');
    assert.deepEqual(got.json().data, { a: '1' });
    const added = await watch.next();
    assert.equal(added?.type, 'ADDED');
    assert.equal(added.object.metadata.resourceVersion, got.json().metadata.resourceVersion);
    assert.equal(await watch.next(1500), undefined, 'and not repeated: no second event');
    watch.close();
    // Its one ResponseComplete event reached the audit backend, with the code the answer had.
    const isCreate = (e: any) => e.objectRef?.name === 'kept' && e.verb === 'create';
    await audit.waitFor((events) => events.some(isCreate));
    const events = audit.events.filter(isCreate);
    assert.deepEqual(
      events.map((e) => [e.stage, e.verb, e.responseStatus?.code]),
      [['ResponseComplete', 'create', 201]],
    );
  });

  it('ends each watch without timeoutSeconds after a random time between --min-request-timeout and twice it', async () => {
    const lifetimes = await Promise.all(
      [0, 1, 2].map(async () => {
        const started = Date.now();
        const w = await openWatch(fx, '/api/v1/namespaces/default/configmaps?watch=true');
        assert.equal(w.status, 200);
        while (!w.ended() && Date.now() - started < 5000) await w.next(200);
        return Date.now() - started;
      }),
    );
    for (const ms of lifetimes) assert.ok(ms >= 950 && ms < 2600, `--min-request-timeout=1: a watch lasted ${ms} ms`);
  });

  it('honours timeoutSeconds over --min-request-timeout', async () => {
    const started = Date.now();
    const w = await openWatch(fx, '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=3');
    while (!w.ended() && Date.now() - started < 6000) await w.next(200);
    const ms = Date.now() - started;
    assert.ok(ms >= 2950 && ms < 3800, `timeoutSeconds=3: the watch lasted ${ms} ms`);
  });
});
