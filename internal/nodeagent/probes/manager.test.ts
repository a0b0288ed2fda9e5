import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { testAgentContext } from '../../../test/support/agent-context.js';
import { createProbeManager } from './manager.js';

let server: http.Server;
let port = 0;
/** Status code per path; 200 unless set. */
const answers = new Map<string, number>();

before(async () => {
  server = http.createServer((req, res) => {
    res.statusCode = answers.get(req.url ?? '/') ?? 200;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
after(() => server?.close());

function pod(uid: string, container: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: uid, namespace: 'default', uid },
    spec: { containers: [{ name: 'app', image: 'busybox', ports: [{ name: 'web', containerPort: port }], ...container }] },
    status: { podIP: '127.0.0.1' },
  };
}

const probe = (path: string, extra: Record<string, unknown> = {}) => ({ httpGet: { path, port: 'web' }, periodSeconds: 1, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 1, ...extra });

async function until(pred: () => boolean, what: string, ms = 8000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('probe manager', { concurrency: true }, () => {
  it('readiness starts false, turns true after success and false again after failures; true without a probe', async () => {
    const ctx = testAgentContext();
    const pm = createProbeManager(ctx);
    const changes: string[] = [];
    pm.onChange((uid) => changes.push(uid));
    answers.set('/ready', 200);
    pm.containerStarted(pod('r1', { readinessProbe: probe('/ready') }), 'app', 'c1', Date.now());
    pm.containerStarted(pod('r2', {}), 'app', 'c2', Date.now());
    assert.equal(pm.isReady('r1', 'app'), false);
    assert.equal(pm.isReady('r2', 'app'), true);
    assert.equal(pm.isStarted('r1', 'app'), true);
    await until(() => pm.isReady('r1', 'app'), 'ready');
    assert.ok(changes.includes('r1'));
    answers.set('/ready', 500);
    await until(() => !pm.isReady('r1', 'app'), 'not ready');
    assert.ok(ctx.events.events.some((e) => e.reason === 'Unhealthy' && e.message === 'Readiness probe failed: HTTP probe failed with statuscode: 500'));
    // A stopped container is not ready; a new instance starts over (not ready until it succeeds).
    answers.set('/ready', 200);
    await until(() => pm.isReady('r1', 'app'), 'ready again');
    pm.containerStopped('r1', 'app');
    assert.equal(pm.isReady('r1', 'app'), false);
    pm.containerStarted(pod('r1', { readinessProbe: probe('/ready') }), 'app', 'c1b', Date.now());
    assert.equal(pm.isReady('r1', 'app'), false);
    await until(() => pm.isReady('r1', 'app'), 'the new instance ready');
    pm.stop();
  });

  it('liveness failure past the threshold calls onFailure once per run, until the container is replaced', async () => {
    const ctx = testAgentContext();
    const pm = createProbeManager(ctx);
    const failures: string[] = [];
    pm.onFailure((uid, name, id, message) => failures.push(`${uid} ${name} ${id} ${message}`));
    answers.set('/live', 500);
    const p = pod('l1', { livenessProbe: probe('/live', { failureThreshold: 2 }) });
    const started = Date.now();
    pm.containerStarted(p, 'app', 'c1', started);
    await until(() => failures.length === 1, 'the first failure');
    assert.deepEqual(failures, ['l1 app c1 Container app failed liveness probe']);
    assert.ok(Date.now() - started >= 1000, 'two failures are needed, a period apart');
    assert.equal(ctx.events.events.filter((e) => e.message === 'Liveness probe failed: HTTP probe failed with statuscode: 500').length, 2);
    await new Promise((r) => setTimeout(r, 2200));
    assert.equal(failures.length, 1, 'on hold until a new container');
    pm.containerStarted(p, 'app', 'c2', Date.now());
    await until(() => failures.length === 2, 'the failure of the new container');
    assert.equal(failures[1], 'l1 app c2 Container app failed liveness probe');
    pm.removePod('l1');
    pm.stop();
  });

  it('the startup probe gates liveness and readiness; initialDelaySeconds holds probing', async () => {
    const ctx = testAgentContext();
    const pm = createProbeManager(ctx);
    const failures: string[] = [];
    pm.onFailure((_u, _n, _i, message) => failures.push(message));
    answers.set('/start', 500);
    answers.set('/live2', 500);
    pm.containerStarted(pod('s1', { startupProbe: probe('/start', { failureThreshold: 30 }), livenessProbe: probe('/live2'), readinessProbe: probe('/ok') }), 'app', 'c1', Date.now());
    assert.equal(pm.isStarted('s1', 'app'), false);
    await new Promise((r) => setTimeout(r, 2200));
    assert.deepEqual(failures, [], 'liveness is not probed before startup succeeds');
    assert.equal(pm.isReady('s1', 'app'), false);
    assert.ok(ctx.events.events.some((e) => e.message === 'Startup probe failed: HTTP probe failed with statuscode: 500'));
    answers.set('/start', 200);
    await until(() => pm.isStarted('s1', 'app'), 'started');
    await until(() => failures.length === 1, 'liveness after startup');
    assert.deepEqual(failures, ['Container app failed liveness probe']);
    await until(() => pm.isReady('s1', 'app'), 'ready after startup');

    const delayed = createProbeManager(ctx);
    const delayedFailures: string[] = [];
    delayed.onFailure((_u, _n, _i, m) => delayedFailures.push(m));
    delayed.containerStarted(pod('d1', { livenessProbe: probe('/live2', { initialDelaySeconds: 3 }) }), 'app', 'c1', Date.now());
    await new Promise((r) => setTimeout(r, 2000));
    assert.deepEqual(delayedFailures, []);
    await until(() => delayedFailures.length === 1, 'liveness after the initial delay');
    delayed.stop();
    pm.stop();
  });

  it('a startup failure past its threshold is reported like liveness', async () => {
    const ctx = testAgentContext();
    const pm = createProbeManager(ctx);
    const failures: string[] = [];
    pm.onFailure((_u, _n, _i, message) => failures.push(message));
    answers.set('/never', 503);
    pm.containerStarted(pod('f1', { startupProbe: probe('/never') }), 'app', 'c1', Date.now());
    await until(() => failures.length === 1, 'the startup failure');
    assert.deepEqual(failures, ['Container app failed startup probe']);
    assert.equal(pm.isStarted('f1', 'app'), false);
    pm.stop();
  });
});
