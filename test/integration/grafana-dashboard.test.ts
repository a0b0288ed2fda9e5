/**
 * deploy/grafana/capstan-apiserver.json against a running server: every metric its PromQL queries
 * (panels and template variables) is on /metrics once the server has seen ordinary traffic. The
 * audit metrics come from the audit part of the server: they are checked whenever the server has
 * the audit flags (then it runs with an audit policy), and named here until it does.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parsePromText, samplesOf } from '../support/prom-text.js';
import { groupOptionsFromFlags, useServer, type ServerFixture } from '../support/server.js';
import { bearer, tokenAuthFileFlag } from '../support/static-tokens.js';

/** Metrics the dashboard queries that another part of the server provides (audit). */
const providedByAudit = ['apiserver_audit_event_total'];

const keywords = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'inf', 'nan']);

/** The metric (sample) names a PromQL expression selects. */
export function promqlMetricNames(expr: string): string[] {
  let e = expr.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  e = e.replace(/\{[^}]*\}/g, ' ').replace(/\[[^\]]*\]/g, ' ');
  e = e.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  e = e.replace(/\$\{?\w+\}?/g, ' ');
  const names: string[] = [];
  for (const m of e.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const before = e[(m.index ?? 0) - 1];
    if (before !== undefined && /[0-9.]/.test(before)) continue; // an exponent (1e5)
    if (e.slice((m.index ?? 0) + m[0].length).trimStart().startsWith('(')) continue; // a function
    if (keywords.has(m[0].toLowerCase())) continue;
    names.push(m[0]);
  }
  return names;
}

interface Dashboard {
  panels: Array<{ type: string; targets?: Array<{ expr: string }> }>;
  templating: { list: Array<{ query?: string | { query: string } }> };
}

/** Every metric name the dashboard's queries select. */
function dashboardMetrics(d: Dashboard): string[] {
  const names = new Set<string>();
  for (const p of d.panels) for (const t of p.targets ?? []) for (const n of promqlMetricNames(t.expr)) names.add(n);
  for (const v of d.templating.list) {
    const q = typeof v.query === 'string' ? v.query : v.query?.query;
    const m = q ? /label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(q) : null;
    if (m) names.add(m[1] as string);
  }
  return [...names].sort();
}

const users = [
  { token: 'admin-token-0123456789', name: 'admin', uid: 'admin-uid', groups: ['system:masters'] },
  // Read /metrics through RBAC (the bootstrap system:monitoring binding), so an authorizer decides.
  { token: 'monitor-token-0123456789', name: 'monitor', uid: 'monitor-uid', groups: ['system:monitoring'] },
] as const;
const admin = bearer(users[0].token);
const monitor = bearer(users[1].token);

/** The audit flags when the server has them (the audit part merged), else none. */
async function auditFlags(): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-dashboard-audit-'));
  const policy = join(dir, 'policy.yaml');
  await writeFile(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
  const flags = [`--audit-policy-file=${policy}`, `--audit-log-path=${join(dir, 'audit.log')}`];
  try {
    groupOptionsFromFlags(flags);
    return flags;
  } catch (err) {
    if (/Unknown argument/i.test((err as Error).message)) return [];
    throw err;
  }
}

function openWatch(fx: ServerFixture, path: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port: fx.port, path, method: 'GET', headers: admin, ca: fx.ca, servername: 'localhost' }, (res) => {
      res.once('data', () => resolve(() => req.destroy()));
    });
    req.on('error', (err) => (/socket hang up|aborted/.test(err.message) ? undefined : reject(err)));
    req.end();
  });
}

describe('Grafana dashboard deploy/grafana/capstan-apiserver.json', () => {
  let audit: string[] = [];
  const fx = useServer({}, async () => {
    audit = await auditFlags();
    return [await tokenAuthFileFlag(users), '--authorization-mode=RBAC', ...audit];
  });

  it('finds the metric names in PromQL', () => {
    assert.deepEqual(promqlMetricNames('histogram_quantile(0.99, sum by (verb, le) (rate(a_bucket{verb!~"WATCH|x{y}"}[$__rate_interval])))'), ['a_bucket']);
    assert.deepEqual(promqlMetricNames('topk(10, max by (resource) (b{instance=~"$instance"})) / on(x) c_total offset 5m'), ['b', 'c_total']);
    assert.deepEqual(promqlMetricNames('rate(d[5m]) > 1e5 and e'), ['d', 'e']);
  });

  it('queries only metrics the server exports', async () => {
    const dashboard = JSON.parse(await readFile(new URL('../../../deploy/grafana/capstan-apiserver.json', import.meta.url), 'utf8')) as Dashboard;
    const wanted = dashboardMetrics(dashboard);
    assert.ok(wanted.length >= 20, `the dashboard queries ${wanted.length} metrics`);
    for (const core of ['apiserver_request_total', 'apiserver_request_duration_seconds_bucket', 'etcd_request_duration_seconds_bucket', 'apiserver_storage_objects', 'process_cpu_seconds_total']) assert.ok(wanted.includes(core), core);

    // Ordinary traffic: writes, reads, a watch kept open, a request cut off by its timeout, and
    // an etcd read of a revision that does not exist yet.
    const cm = '/api/v1/namespaces/default/configmaps';
    assert.equal((await fx.request('POST', cm, { headers: admin, body: { metadata: { name: 'dash' } } })).status, 201);
    assert.equal((await fx.request('GET', cm, { headers: admin })).status, 200);
    const stopWatch = await openWatch(fx, `${cm}?watch=true`);
    assert.equal((await fx.request('GET', `${cm}?resourceVersion=999999999&resourceVersionMatch=Exact&limit=1`, { headers: admin })).status, 504);
    for (let i = 0; i < 20; i++) {
      const res = await fx.request('POST', `${cm}?timeout=1ns`, { headers: admin, body: { metadata: { name: `t${i}` } } });
      if (res.status === 504) break;
    }
    assert.equal((await fx.request('GET', '/metrics', { headers: monitor })).status, 200);
    const text = parsePromText((await fx.request('GET', '/metrics', { headers: monitor })).text);
    stopWatch();

    const checked = audit.length > 0 ? wanted : wanted.filter((n) => !providedByAudit.includes(n));
    const missing = checked.filter((n) => samplesOf(text, n).length === 0);
    assert.deepEqual(missing, [], 'queried by the dashboard but not on /metrics');
    if (audit.length === 0) {
      // Until the audit flags exist, these are the only metrics not checked.
      assert.deepEqual(wanted.filter((n) => providedByAudit.includes(n)), providedByAudit);
    }
  });
});
