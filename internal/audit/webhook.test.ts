import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { auditEvents, recordingObserver } from '../../test/support/audit-events.js';
import { startAuditWebhookReceiver, type AuditWebhookReceiver } from '../../test/support/audit-webhook-receiver.js';
import { BufferedBackend } from './buffered.js';
import { loadWebhookBackend } from './webhook.js';

describe('audit webhook backend against a real HTTPS receiver', () => {
  let dir: string;
  let receiver: AuditWebhookReceiver;
  let configFile: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-audit-webhook-'));
    receiver = await startAuditWebhookReceiver();
    configFile = await receiver.writeKubeconfig(dir);
  });
  after(async () => {
    await receiver.stop();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    receiver.calls.length = 0;
    receiver.lists.length = 0;
    receiver.events.length = 0;
    receiver.failAlways = undefined;
    receiver.failNext(0);
    receiver.delayMs = 0;
  });

  it('POSTs the events as one audit.k8s.io/v1 EventList whose items carry no kind of their own', async () => {
    const backend = await loadWebhookBackend({ configFile, initialBackoffMs: 10, version: 'audit.k8s.io/v1' });
    assert.equal(backend.name, 'webhook');
    const events = auditEvents(3);
    assert.equal(await backend.processEvents(events), true);
    await backend.shutdown();
    assert.equal(receiver.calls.length, 1);
    const call = receiver.calls[0]!;
    assert.deepEqual([call.method, call.path, call.contentType, call.authorization], ['POST', '/audit?timeout=30s', 'application/json', `Bearer ${receiver.token}`]);
    const expectedItems = events.map(({ kind: _k, apiVersion: _a, ...item }) => item);
    assert.deepEqual(call.body, { kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items: expectedItems });
  });

  it('retries any failure (a 400 too, unlike the authentication webhooks) until the receiver takes the events', async () => {
    const observer = recordingObserver();
    const backend = await loadWebhookBackend({ configFile, initialBackoffMs: 10, version: 'audit.k8s.io/v1', observer });
    receiver.failNext(2, 500);
    assert.equal(await backend.processEvents(auditEvents(2)), true);
    receiver.failNext(2, 400);
    assert.equal(await backend.processEvents(auditEvents(1, 2)), true);
    await backend.shutdown();
    assert.deepEqual(receiver.calls.map((c) => c.status), [500, 500, 200, 400, 400, 200]);
    assert.deepEqual(receiver.events.map((e) => e.auditID), ['id-0', 'id-1', 'id-2']);
    assert.deepEqual(observer.errors, []);
  });

  it('gives up after five calls with growing waits, and reports the events as plugin "webhook"', async () => {
    const observer = recordingObserver();
    const backend = await loadWebhookBackend({ configFile, initialBackoffMs: 20, version: 'audit.k8s.io/v1', observer });
    receiver.failAlways = 503;
    const start = performance.now();
    assert.equal(await backend.processEvents(auditEvents(2)), false);
    const took = performance.now() - start;
    await backend.shutdown();
    assert.equal(receiver.calls.length, 5);
    // Waits of 20, 30, 45 and 67.5 ms, each up to 20% longer.
    assert.ok(took >= 162, `gave up after ${took}ms`);
    assert.ok(took < 162 * 1.2 + 500, `gave up after ${took}ms`);
    assert.deepEqual(observer.errors, [['webhook', 2]]);
    assert.match(observer.logs[0]!, /^Error in audit plugin 'webhook' affecting 2 audit events: the audit sink answers 503\nImpacted events:\n.*id="id-0".*\n.*id="id-1"/);
  });

  it('batched (buffered<webhook>), delivers every event and waits for calls in flight on shutdown', async () => {
    const webhook = await loadWebhookBackend({ configFile, initialBackoffMs: 10, version: 'audit.k8s.io/v1' });
    const buffered = new BufferedBackend(webhook, { bufferSize: 100, maxBatchSize: 4, maxBatchWaitMs: 50, throttleEnable: true, throttleQPS: 10, throttleBurst: 15, asyncDelegate: true });
    buffered.run();
    receiver.delayMs = 50;
    receiver.failNext(1);
    for (const ev of auditEvents(10)) buffered.processEvents([ev]);
    await buffered.shutdown();
    assert.deepEqual(
      receiver.events.map((e) => e.auditID).sort(),
      auditEvents(10).map((e) => e.auditID).sort(),
    );
    assert.ok(receiver.lists.every((l) => l.items.length <= 4));
  });

  it('refuses to start without a readable kubeconfig, with kube\'s messages', async () => {
    const missing = join(dir, 'nope.kubeconfig');
    await assert.rejects(loadWebhookBackend({ configFile: missing, initialBackoffMs: 10, version: 'audit.k8s.io/v1' }), {
      message: `initializing audit webhook: stat ${missing}: no such file or directory`,
    });
    const bad = join(dir, 'bad.kubeconfig');
    await writeFile(bad, 'clusters: [\n');
    await assert.rejects(loadWebhookBackend({ configFile: bad, initialBackoffMs: 10, version: 'audit.k8s.io/v1' }), /^Error: initializing audit webhook: /);
    const noServer = join(dir, 'noserver.kubeconfig');
    await writeFile(noServer, 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {}\n');
    await assert.rejects(loadWebhookBackend({ configFile: noServer, initialBackoffMs: 10, version: 'audit.k8s.io/v1' }), /^Error: initializing audit webhook: .*server/);
  });

  it('refuses every version but audit.k8s.io/v1, as 1.33 does', async () => {
    await assert.rejects(loadWebhookBackend({ configFile, initialBackoffMs: 10, version: 'audit.k8s.io/v1beta1' }), {
      message: 'invalid group version, allowed versions are ["audit.k8s.io/v1"]',
    });
    await assert.rejects(loadWebhookBackend({ configFile, initialBackoffMs: 10, version: 'a/b/c' }), { message: 'unexpected GroupVersion string: a/b/c' });
  });
});
