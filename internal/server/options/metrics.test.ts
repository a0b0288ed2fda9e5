import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';
import type { MetricsOptions } from './metrics.js';

const run = (...args: string[]) => parseFlags(['--etcd-servers=http://e:1', ...args], 'test');
const options = (...args: string[]): MetricsOptions => {
  const r = run(...args);
  assert.equal(r.kind, 'run', r.kind === 'exit' ? r.stderr : '');
  return (r as { options: { metrics: MetricsOptions } }).options.metrics;
};
const error = (...args: string[]): string => {
  const r = run(...args);
  assert.equal(r.kind, 'exit', `expected ${args.join(' ')} to be refused`);
  return r.kind === 'exit' ? (r.stderr ?? '').trim() : '';
};
const lists = (o: MetricsOptions): Record<string, Record<string, string[]>> =>
  Object.fromEntries([...o.allowLists].map(([m, labels]) => [m, Object.fromEntries([...labels].map(([l, v]) => [l, [...v]]))]));

describe('metrics flags', () => {
  it("kube's defaults: nothing hidden shown or disabled, objects counted every minute, the database size every 30s", () => {
    const o = options();
    assert.equal(o.showHiddenMetricsForVersion, '');
    assert.deepEqual(o.disabledMetrics, []);
    assert.equal(o.allowLists.size, 0);
    assert.equal(o.etcdCountMetricPollPeriodMs, 60_000);
    assert.equal(o.etcdDbMetricPollIntervalMs, 30_000);
    assert.equal(options('--etcd-count-metric-poll-period=0', '--etcd-db-metric-poll-interval=1m30s').etcdDbMetricPollIntervalMs, 90_000);
  });

  it('accepts only the previous minor version for --show-hidden-metrics-for-version', () => {
    assert.equal(options('--show-hidden-metrics-for-version=1.32').showHiddenMetricsForVersion, '1.32');
    for (const v of ['1.31', '1.33', '1.32.0', 'v1.32', 'x']) {
      assert.equal(error(`--show-hidden-metrics-for-version=${v}`), "Error: --show-hidden-metrics-for-version must be omitted or have the value '1.32'. Only the previous minor version is allowed");
    }
  });

  it('reads --disabled-metrics as a string slice of fully qualified names', () => {
    assert.deepEqual(options('--disabled-metrics=a_total,b', '--disabled-metrics', 'c:d').disabledMetrics, ['a_total', 'b', 'c:d']);
    assert.equal(error('--disabled-metrics=ok,9bad'), 'Error: --disabled-metrics must be fully qualified metric names matching "^[a-zA-Z_:][a-zA-Z0-9_:]*$", got "9bad"');
  });

  it("reads --allow-metric-labels as pflag's StringToString, occurrences merged", () => {
    assert.deepEqual(lists(options('--allow-metric-labels=m1,l1=v1,v2,v3')), { m1: { l1: ['v1', 'v2', 'v3'] } });
    assert.deepEqual(lists(options("--allow-metric-labels=m1,l1='v1,v2'")), { m1: { l1: ["'v1", "v2'"] } }, 'quotes are kept, as kube keeps them');
    assert.deepEqual(lists(options('--allow-metric-labels="m1,l1=a","m1,l2=b","m2,l1=c"')), { m1: { l1: ['a'], l2: ['b'] }, m2: { l1: ['c'] } });
    assert.deepEqual(lists(options('--allow-metric-labels=m1,l1=a', '--allow-metric-labels=m2,l2=b')), { m1: { l1: ['a'] }, m2: { l2: ['b'] } });
    assert.equal(error('--allow-metric-labels=m1'), 'Error: invalid argument "m1" for "--allow-metric-labels" flag: m1 must be formatted as key=value');
    assert.equal(error('--allow-metric-labels=m1,l1=a,m2,l2=b'), 'Error: invalid argument "m1,l1=a,m2,l2=b" for "--allow-metric-labels" flag: m1 must be formatted as key=value');
    assert.equal(error('--allow-metric-labels=m1=a'), 'Error: --allow-metric-labels must have a list of kv pair with format `metricName,labelName=labelValue, labelValue,...`');
  });

  it('reads --allow-metric-labels-manifest, which the flag overrides', () => {
    const dir = mkdtempSync(join(tmpdir(), 'capstan-allow-'));
    const manifest = join(dir, 'allow.yaml');
    writeFileSync(manifest, '"apiserver_request_total,verb": "GET,LIST"\n"apiserver_request_total,code": "200"\n');
    assert.deepEqual(lists(options(`--allow-metric-labels-manifest=${manifest}`)), { apiserver_request_total: { verb: ['GET', 'LIST'], code: ['200'] } });
    assert.deepEqual(lists(options(`--allow-metric-labels-manifest=${manifest}`, '--allow-metric-labels=m,l=x')), { m: { l: ['x'] } });
    assert.match(error(`--allow-metric-labels-manifest=${join(dir, 'missing.yaml')}`), /^Error: failed to read allow list manifest: ENOENT/);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, '- a\n- b\n');
    assert.match(error(`--allow-metric-labels-manifest=${bad}`), /^Error: failed to parse allow list manifest: /);
    writeFileSync(bad, '"nolabel": "x"\n');
    assert.equal(error(`--allow-metric-labels-manifest=${bad}`), 'Error: --allow-metric-labels must have a list of kv pair with format `metricName,labelName=labelValue, labelValue,...`');
  });

  it('refuses negative or malformed poll intervals', () => {
    assert.equal(error('--etcd-count-metric-poll-period=-1s'), 'Error: --etcd-count-metric-poll-period -1s must not be negative');
    assert.match(error('--etcd-db-metric-poll-interval=soon'), /^Error: invalid argument "soon" for "--etcd-db-metric-poll-interval" flag: /);
  });
});
