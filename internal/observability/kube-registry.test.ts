import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Histogram } from 'prom-client';
import { KubeRegistry } from './kube-registry.js';
import { CounterVec, GaugeVec } from './vectors.js';

describe('KubeRegistry', () => {
  it("prefixes help texts with kube's stability level; runtime metrics get none", async () => {
    const registry = new KubeRegistry();
    new CounterVec({ name: 'apiserver_request_total', help: 'Counter.', registers: [registry] }).labels().inc();
    new Counter({ name: 'apiserver_audit_event_total', help: 'Counter of audit events generated and sent to the audit backend.', registers: [registry] }).inc();
    new Counter({ name: 'process_cpu_seconds_total', help: 'CPU.', registers: [registry] }).inc();
    const text = await registry.metrics();
    assert.match(text, /^# HELP apiserver_request_total \[STABLE\] Counter\.$/m);
    assert.match(text, /^# HELP apiserver_audit_event_total \[ALPHA\] Counter of audit events generated and sent to the audit backend\.$/m);
    assert.match(text, /^# HELP process_cpu_seconds_total CPU\.$/m);
  });

  it('hides metrics deprecated before 1.33 unless shown, and marks them deprecated when shown', async () => {
    const hidden = new KubeRegistry();
    const g1 = new GaugeVec({ name: 'apiserver_storage_db_total_size_in_bytes', help: 'Total size.', labelNames: ['endpoint'], registers: [hidden] });
    g1.labels('e').set(1);
    assert.equal(hidden.exports('apiserver_storage_db_total_size_in_bytes'), false);
    assert.doesNotMatch(await hidden.metrics(), /apiserver_storage_db_total_size_in_bytes/);
    assert.match(await hidden.metrics(), /^hidden_metrics_total 1$/m);

    const shown = new KubeRegistry({ showHidden: true });
    new GaugeVec({ name: 'apiserver_storage_db_total_size_in_bytes', help: 'Total size.', labelNames: ['endpoint'], registers: [shown] }).labels('e').set(1);
    const text = await shown.metrics();
    assert.match(text, /^# HELP apiserver_storage_db_total_size_in_bytes \[ALPHA\] \(Deprecated since 1\.28\.0\) Total size\.$/m);
    assert.match(text, /^registered_metrics_total\{deprecated_version="1\.28\.0",stability_level="ALPHA"\} 1$/m);
  });

  it('never exports a disabled metric, whoever registers it', async () => {
    const registry = new KubeRegistry({ disabled: new Set(['apiserver_audit_event_total', 'apiserver_request_total']) });
    const c = new Counter({ name: 'apiserver_audit_event_total', help: 'h', registers: [registry] });
    c.inc();
    new CounterVec({ name: 'apiserver_request_total', help: 'h', registers: [registry] }).labels().inc();
    const text = await registry.metrics();
    assert.doesNotMatch(text, /apiserver_audit_event_total|apiserver_request_total/);
    assert.match(text, /^disabled_metrics_total 2$/m);
  });

  it('records label values outside an allow-list as "unexpected", for prom-client metrics and lean vectors', async () => {
    const allowLists = new Map([
      ['a_total', new Map([['verb', new Set(['GET'])]])],
      ['b_seconds', new Map([['code', new Set(['200'])]])],
      ['c_total', new Map([['verb', new Set(['GET'])]])],
    ]);
    const registry = new KubeRegistry({ allowLists });
    const a = new Counter({ name: 'a_total', help: 'h', labelNames: ['verb', 'code'], registers: [registry] });
    a.inc({ verb: 'GET', code: '1' });
    a.inc({ verb: 'PUT', code: '1' });
    a.labels('DELETE', '2').inc();
    a.labels({ verb: 'GET', code: '2' }).inc();
    const b = new Histogram({ name: 'b_seconds', help: 'h', labelNames: ['code'], buckets: [1], registers: [registry] });
    b.labels('500').observe(0.5);
    b.observe({ code: '200' }, 0.5);
    const c = new CounterVec({ name: 'c_total', help: 'h', labelNames: ['verb'], registers: [registry] });
    c.labels('LIST').inc();
    c.labels('GET').inc(2);
    const text = await registry.metrics();
    assert.match(text, /^a_total\{verb="GET",code="1"\} 1$/m);
    assert.match(text, /^a_total\{verb="unexpected",code="1"\} 1$/m);
    assert.match(text, /^a_total\{verb="unexpected",code="2"\} 1$/m);
    assert.match(text, /^a_total\{verb="GET",code="2"\} 1$/m);
    assert.match(text, /^b_seconds_count\{code="unexpected"\} 1$/m);
    assert.match(text, /^b_seconds_count\{code="200"\} 1$/m);
    assert.match(text, /^c_total\{verb="unexpected"\} 1$/m);
    assert.match(text, /^c_total\{verb="GET"\} 2$/m);
  });
});
