import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryRow } from './report-tables.js';
import type { Sample } from './sampler.js';
import { planDisruptions, parseDuration, disruptionCounts } from './schedule.js';
import { disruptionAt, slope, splitByWindows, summarizeLatencies, type Disruption } from './stats.js';

const restart: Disruption = { kind: 'apiserver-restart', target: 'apiserver-0', start: 10_000, end: 14_000 };
const compaction: Disruption = { kind: 'etcd-compaction', target: 'revision 9', start: 60_000, end: 60_050 };

describe('soak report arithmetic', () => {
  it('takes percentiles by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    assert.deepEqual(summarizeLatencies(values), { n: 100, p50: 50, p90: 90, p99: 99 });
    assert.deepEqual(summarizeLatencies([7]), { n: 1, p50: 7, p90: 7, p99: 7 });
    const none = summarizeLatencies([]);
    assert.equal(none.n, 0);
    assert.ok(Number.isNaN(none.p99));
  });

  it('attributes a moment to the disruption whose window, grace included, holds it', () => {
    assert.equal(disruptionAt(9_999, [restart, compaction], 15_000), undefined);
    assert.equal(disruptionAt(10_000, [restart, compaction], 15_000), restart);
    assert.equal(disruptionAt(29_000, [restart, compaction], 15_000), restart);
    assert.equal(disruptionAt(29_001, [restart, compaction], 15_000), undefined);
    assert.equal(disruptionAt(75_050, [restart, compaction], 15_000), compaction);
    assert.equal(disruptionAt(75_051, [restart, compaction], 15_000), undefined);
  });

  it('splits error counts between disruption windows and quiet time', () => {
    const events = [
      { at: 5_000, count: 2 },
      { at: 12_000, count: 3 },
      { at: 30_000, count: 1 },
      { at: 61_000, count: 4 },
    ];
    assert.deepEqual(splitByWindows(events, [restart, compaction], 15_000), { total: 10, during: 7, outside: 3 });
    assert.deepEqual(splitByWindows(events, [], 15_000), { total: 10, during: 0, outside: 10 });
  });

  it('fits a memory trend and reports start, peak and end over the last lifetime', () => {
    assert.equal(slope([0, 1, 2, 3], [10, 12, 14, 16]), 2);
    assert.ok(Number.isNaN(slope([1], [1])));
    const mib = 1024 * 1024;
    const samples = [0, 1, 2, 3, 4].map((h) => ({ t: h * 3_600_000, servers: [{ name: 'a', pid: h < 2 ? 1 : 2, rss: (h < 2 ? 500 : 100 + 10 * h) * mib }] })) as unknown as Sample[];
    const row = memoryRow(samples, (s) => ({ pid: s.servers[0]?.pid ?? -1, v: s.servers[0]?.rss ?? Number.NaN }));
    assert.equal(row.start, 500 * mib);
    assert.equal(row.peak, 500 * mib);
    assert.equal(row.end, 140 * mib);
    assert.equal(Math.round(row.trend), 10);
    const short = memoryRow(samples.slice(0, 1).concat([{ ...samples[0], t: 60_000 } as Sample]), (s) => ({ pid: 1, v: s.servers[0]?.rss ?? Number.NaN }));
    assert.ok(Number.isNaN(short.trend), 'no trend over a lifetime under ten minutes');
  });
});

describe('soak disruption schedule', () => {
  it('gives a six-minute run at least one of each disruption, inside the middle of the run, in order', () => {
    const d = 6 * 60_000;
    const plan = planDisruptions(d);
    for (const kind of ['apiserver-restart', 'etcd-compaction', 'etcd-member-restart'] as const) assert.ok(plan.some((p) => p.kind === kind), kind);
    for (const p of plan) assert.ok(p.at >= d * 0.1 && p.at <= d * 0.9, `${p.kind} at ${p.at}`);
    assert.deepEqual([...plan].sort((a, b) => a.at - b.at), plan);
  });

  it('scales the counts with the duration', () => {
    assert.deepEqual(disruptionCounts(60 * 60_000), { 'apiserver-restart': 6, 'etcd-compaction': 10, 'etcd-member-restart': 2 });
    assert.equal(planDisruptions(60 * 60_000).length, 18);
  });

  it('parses Go-style durations and rejects others', () => {
    assert.equal(parseDuration('60m'), 3_600_000);
    assert.equal(parseDuration('1h30m'), 5_400_000);
    assert.equal(parseDuration('90s'), 90_000);
    for (const bad of ['', '60', 'm', '5x', '0m', '5m junk']) assert.throws(() => parseDuration(bad), /SOAK_DURATION/, bad);
  });
});
