/**
 * /metrics over HTTPS against real etcd: apiserver_request_total counts a known set of requests
 * exactly (by verb, group, version, resource, scope and code, refusals and bogus requests
 * included, unknown resources folded), kube's buckets and help texts, long-running and in-flight
 * gauges, watch events, admission and etcd metrics, apiserver_storage_objects after a poll, the
 * process and Node.js metrics, and who may read /metrics (nonResourceURLs /metrics).
 */
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { describe, it } from 'node:test';
import { parsePromText, samplesOf, sumOf, type PromText } from '../support/prom-text.js';
import { useServer, type ServerFixture } from '../support/server.js';
import { bearer, tokenAuthFileFlag } from '../support/static-tokens.js';

const users = [
  { token: 'admin-token-0123456789', name: 'admin', uid: 'admin-uid', groups: ['system:masters'] },
  // system:monitoring is bound to the system:monitoring ClusterRole (get /metrics) by the bootstrap policy.
  { token: 'monitor-token-0123456789', name: 'monitor', uid: 'monitor-uid', groups: ['system:monitoring'] },
  { token: 'nobody-token-0123456789', name: 'nobody', uid: 'nobody-uid' },
] as const;
const admin = bearer(users[0].token);
const monitor = bearer(users[1].token);
const nobody = bearer(users[2].token);

async function scrape(fx: ServerFixture): Promise<PromText> {
  const res = await fx.request('GET', '/metrics', { headers: admin });
  assert.equal(res.status, 200, res.text);
  return parsePromText(res.text);
}

/** The non-zero changes of apiserver_request_total between two scrapes, for resource requests. */
function requestDeltas(before: PromText, after: PromText): Record<string, number> {
  const key = (l: Readonly<Record<string, string>>): string => [l.verb, l.group, l.version, l.resource, l.subresource, l.scope, l.component, l.dry_run, l.code].join('|');
  const out: Record<string, number> = {};
  const prior = new Map(samplesOf(before, 'apiserver_request_total').map((s) => [key(s.labels), s.value]));
  for (const s of samplesOf(after, 'apiserver_request_total')) {
    if (s.labels.scope === '') continue; // non-resource paths (the scrapes themselves)
    const d = s.value - (prior.get(key(s.labels)) ?? 0);
    if (d !== 0) out[key(s.labels)] = d;
  }
  return out;
}

/** Opens a watch and resolves with its response once the headers arrive; close() ends it. */
function openWatch(fx: ServerFixture, path: string): Promise<{ events: () => number; close: () => void; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port: fx.port, path, method: 'GET', headers: admin, ca: fx.ca, servername: 'localhost' }, (res) => {
      let lines = 0;
      const ended = new Promise<void>((r) => res.on('close', () => r()));
      res.on('data', (c: Buffer) => (lines += c.toString().split('\n').length - 1));
      resolve({ events: () => lines, close: () => req.destroy(), ended });
    });
    req.on('error', (err) => (err.message.includes('socket hang up') || err.message.includes('aborted') ? undefined : reject(err)));
    req.end();
  });
}

async function until(pred: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const cm = '/api/v1/namespaces/default/configmaps';

describe('metrics at /metrics', () => {
  const fx = useServer({}, async () => [await tokenAuthFileFlag(users), '--authorization-mode=RBAC', '--etcd-count-metric-poll-period=1s', '--controllers=*,-root-ca-cert-publisher']);

  it('is served to users allowed get on nonResourceURLs /metrics, and refused to others', async () => {
    const denied = await fx.request('GET', '/metrics', { headers: nobody });
    assert.equal(denied.status, 403);
    assert.equal(denied.json().message, 'forbidden: User "nobody" cannot get path "/metrics"');
    const allowed = await fx.request('GET', '/metrics', { headers: monitor });
    assert.equal(allowed.status, 200);
    assert.match(String(allowed.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  });

  it('counts a known set of requests exactly in apiserver_request_total', async () => {
    const before = await scrape(fx);
    for (const name of ['m1', 'm2', 'm3']) assert.equal((await fx.request('POST', cm, { headers: admin, body: { metadata: { name }, data: { k: 'v' } } })).status, 201);
    for (let i = 0; i < 2; i++) assert.equal((await fx.request('GET', `${cm}/m1`, { headers: admin })).status, 200);
    for (let i = 0; i < 2; i++) assert.equal((await fx.request('GET', cm, { headers: admin })).status, 200);
    assert.equal((await fx.request('GET', `${cm}?watch=true&timeoutSeconds=1`, { headers: admin })).status, 200);
    assert.equal((await fx.request('GET', `${cm}/missing`, { headers: admin })).status, 404);
    assert.equal((await fx.request('GET', cm, { headers: nobody })).status, 403);
    assert.equal((await fx.request('GET', cm, { headers: bearer('not-a-token') })).status, 401);
    assert.equal((await fx.request('GET', '/api/v1/namespaces/default/bogusthings', { headers: admin })).status, 404);
    assert.equal((await fx.request('GET', '/apis/bogus.example.com/v9/things/x', { headers: admin })).status, 404);
    assert.equal((await fx.request('PROPFIND', cm, { headers: admin })).status, 405);
    assert.equal((await fx.request('PATCH', `${cm}/m2?dryRun=All`, { headers: { ...admin, 'content-type': 'application/merge-patch+json' }, rawBody: '{"data":{"k":"w"}}' })).status, 200);
    const after = await scrape(fx);

    assert.deepEqual(requestDeltas(before, after), {
      'POST||v1|configmaps||resource|apiserver||201': 3,
      'GET||v1|configmaps||resource|apiserver||200': 2,
      'LIST||v1|configmaps||namespace|apiserver||200': 2,
      'WATCH||v1|configmaps||namespace|apiserver||200': 1,
      'GET||v1|configmaps||resource|apiserver||404': 1,
      'LIST||v1|configmaps||namespace|apiserver||403': 1,
      'LIST||v1|configmaps||namespace|apiserver||401': 1,
      // A resource the server does not serve: the group version is kept, the resource folds.
      'LIST||v1|||namespace|apiserver||404': 1,
      // An unknown group: nothing of the path survives.
      'GET|||||resource|apiserver||404': 1,
      'other||v1|configmaps||namespace|apiserver||405': 1,
      'PATCH||v1|configmaps||resource|apiserver|All|200': 1,
    });
    assert.ok(samplesOf(after, 'apiserver_request_duration_seconds_count').every((s) => !('code' in s.labels)), 'the duration histogram has no code label');
    assert.equal(sumOf(after, 'apiserver_request_duration_seconds_count', { verb: 'POST', resource: 'configmaps' }) - sumOf(before, 'apiserver_request_duration_seconds_count', { verb: 'POST', resource: 'configmaps' }), 3);
    assert.equal(sumOf(after, 'apiserver_response_sizes_count', { verb: 'LIST', resource: 'configmaps' }) - sumOf(before, 'apiserver_response_sizes_count', { verb: 'LIST', resource: 'configmaps' }), 4);
  });

  it("uses kube's names, help texts, buckets and label order", async () => {
    const res = await fx.request('GET', '/metrics', { headers: admin });
    const text = parsePromText(res.text);
    assert.equal(text.get('apiserver_request_total')?.help, '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.');
    assert.equal(text.get('apiserver_request_total')?.type, 'counter');
    assert.equal(text.get('etcd_request_duration_seconds')?.help, '[ALPHA] Etcd request latency in seconds for each operation and object type.');
    const les = (name: string): string[] => [...new Set(samplesOf(text, `${name}_bucket`).map((s) => s.labels.le as string))];
    assert.deepEqual(les('apiserver_request_duration_seconds'), ['0.005', '0.025', '0.05', '0.1', '0.2', '0.4', '0.6', '0.8', '1', '1.25', '1.5', '2', '3', '4', '5', '6', '8', '10', '15', '20', '30', '45', '60', '+Inf']);
    assert.deepEqual(les('apiserver_response_sizes'), ['1000', '10000', '100000', '1e+06', '1e+07', '1e+08', '1e+09', '+Inf']);
    assert.deepEqual(les('etcd_request_duration_seconds'), les('apiserver_request_duration_seconds'));
    assert.deepEqual(les('apiserver_admission_step_admission_duration_seconds'), ['0.005', '0.025', '0.1', '0.5', '1', '2.5', '+Inf']);
    // Go's client sorts label names (le last).
    assert.match(res.text, /^apiserver_request_total\{code="201",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"\} \d+$/m);
    assert.match(res.text, /^apiserver_request_duration_seconds_bucket\{component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1",le="0\.005"\} \d+$/m);
    assert.doesNotMatch(res.text, /apiserver_registered_watchers/, 'removed from kube before 1.33');
    assert.doesNotMatch(res.text, /apiserver_storage_db_total_size_in_bytes/, 'hidden since 1.29');
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_open_fds', 'process_start_time_seconds', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      assert.ok(text.get(name)?.samples.length, `${name} is exported`);
    }
    assert.ok(sumOf(text, 'registered_metrics_total', { stability_level: 'STABLE' }) >= 5);
  });

  it('tracks an open watch as long-running and counts the events it is sent', async () => {
    const lr = { verb: 'WATCH', group: '', version: 'v1', resource: 'configmaps', subresource: '', scope: 'namespace', component: 'apiserver' };
    const eventsBefore = sumOf(await scrape(fx), 'apiserver_watch_events_total', { group: '', version: 'v1', kind: 'ConfigMap' });
    const watch = await openWatch(fx, `${cm}?watch=true`);
    await until(async () => watch.events() >= 3);
    assert.equal(sumOf(await scrape(fx), 'apiserver_longrunning_requests', lr), 1);
    assert.equal((await fx.request('POST', cm, { headers: admin, body: { metadata: { name: 'm4' } } })).status, 201);
    await until(async () => watch.events() >= 4);
    watch.close();
    await watch.ended;
    await until(async () => sumOf(await scrape(fx), 'apiserver_longrunning_requests', lr) === 0);
    const after = await scrape(fx);
    assert.equal(sumOf(after, 'apiserver_watch_events_total', { group: '', version: 'v1', kind: 'ConfigMap' }) - eventsBefore, watch.events());
    assert.equal(sumOf(after, 'apiserver_watch_events_sizes_count', { kind: 'ConfigMap' }), sumOf(after, 'apiserver_watch_events_total', { kind: 'ConfigMap' }));
    assert.deepEqual(samplesOf(after, 'apiserver_current_inflight_requests').map((s) => s.labels.request_kind).sort(), ['mutating', 'readOnly']);
  });

  it('times admission steps and controllers, accepted and rejected', async () => {
    const refused = await fx.request('POST', '/api/v1/namespaces/nowhere/configmaps', { headers: admin, body: { metadata: { name: 'x' } } });
    assert.equal(refused.status, 404);
    const text = await scrape(fx);
    assert.ok(sumOf(text, 'apiserver_admission_step_admission_duration_seconds_count', { operation: 'CREATE', rejected: 'false' }) >= 4);
    assert.equal(sumOf(text, 'apiserver_admission_step_admission_duration_seconds_count', { operation: 'CREATE', rejected: 'true' }), 1);
    assert.equal(sumOf(text, 'apiserver_admission_step_admission_duration_seconds_summary_count', { operation: 'CREATE', rejected: 'true' }), 1);
    assert.equal(sumOf(text, 'apiserver_admission_controller_admission_duration_seconds_count', { name: 'NamespaceLifecycle', operation: 'CREATE', rejected: 'true' }), 1);
  });

  it('times etcd requests by operation and type, and polls object counts and the database size', async () => {
    assert.equal((await fx.request('DELETE', `${cm}/m3`, { headers: admin })).status, 200);
    const text = await scrape(fx);
    for (const operation of ['create', 'delete', 'get', 'list', 'listWithCount']) {
      assert.ok(sumOf(text, 'etcd_requests_total', { operation }) > 0, `etcd_requests_total{operation="${operation}"}`);
    }
    assert.ok(sumOf(text, 'etcd_request_duration_seconds_count', { operation: 'create', type: 'configmaps' }) >= 4);
    assert.ok(sumOf(text, 'etcd_requests_total', { operation: 'listWithCount', type: '/registry/configmaps/' }) >= 1);
    assert.ok(sumOf(text, 'apiserver_storage_size_bytes', { storage_cluster_id: 'etcd-0' }) > 0);
    // What etcd holds: m1, m2 and m4 (m3 was deleted); the server creates no ConfigMaps of its own.
    await until(async () => sumOf(await scrape(fx), 'apiserver_storage_objects', { resource: 'configmaps' }) === 3);
    assert.ok(sumOf(await scrape(fx), 'apiserver_storage_objects', { resource: 'namespaces' }) >= 4);
  });
});

describe('metric flags', () => {
  const fx = useServer({}, async () => [
    await tokenAuthFileFlag(users),
    '--disabled-metrics=apiserver_request_total',
    '--allow-metric-labels=apiserver_request_duration_seconds,verb=GET,POST',
    '--show-hidden-metrics-for-version=1.32',
    '--etcd-db-metric-poll-interval=1s',
    '--etcd-count-metric-poll-period=0',
  ]);

  it('leaves out disabled metrics, labels values outside an allow-list "unexpected", and shows hidden ones', async () => {
    assert.equal((await fx.request('GET', cm, { headers: admin })).status, 200);
    assert.equal((await fx.request('GET', `${cm}/none`, { headers: admin })).status, 404);
    const res = await fx.request('GET', '/metrics', { headers: admin });
    const text = parsePromText(res.text);
    assert.equal(text.get('apiserver_request_total'), undefined, 'disabled');
    assert.equal(sumOf(text, 'disabled_metrics_total'), 1);
    assert.ok(sumOf(text, 'apiserver_request_duration_seconds_count', { verb: 'unexpected', resource: 'configmaps' }) >= 1, 'LIST is not allowed');
    assert.ok(sumOf(text, 'apiserver_request_duration_seconds_count', { verb: 'GET', resource: 'configmaps' }) >= 1);
    assert.equal(samplesOf(text, 'apiserver_request_duration_seconds_count', { verb: 'LIST' }).length, 0);
    assert.equal(text.get('apiserver_storage_objects'), undefined, '--etcd-count-metric-poll-period=0 collects nothing');
    await until(async () => samplesOf(parsePromText((await fx.request('GET', '/metrics', { headers: admin })).text), 'apiserver_storage_db_total_size_in_bytes').length === 1);
    const shown = parsePromText((await fx.request('GET', '/metrics', { headers: admin })).text);
    assert.equal(shown.get('apiserver_storage_db_total_size_in_bytes')?.help, '[ALPHA] (Deprecated since 1.28.0) Total size of the storage database file physically allocated in bytes.');
    const [sample] = samplesOf(shown, 'apiserver_storage_db_total_size_in_bytes');
    assert.equal(sample?.labels.endpoint, fx.options.etcdServers[0]);
    assert.ok((sample?.value ?? 0) > 0);
  });
});
