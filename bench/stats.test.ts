/**
 * Self-checks of the benchmark's pure helpers: percentiles, ratios and their formatting, target
 * judgement, result lines, the watch-stream splitter and the profile summary. Fast (no servers):
 * `node --test dist/bench/*.test.js`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { selfTimes } from './profile-summary.js';
import { formatLine, formatTable, meets, result } from './results.js';
import { formatBytes, formatMs, formatRate, formatRatio, median, percentile, ratio } from './stats.js';
import { LineSplitter, eventType, stringField } from './watch-stream.js';

test('percentile uses the nearest rank and does not reorder its input', () => {
  const values = [5, 1, 4, 2, 3];
  assert.equal(percentile(values, 50), 3);
  assert.equal(percentile(values, 99), 5);
  assert.equal(percentile(values, 0), 1);
  assert.equal(percentile(Array.from({ length: 100 }, (_, i) => i + 1), 99), 99);
  assert.deepEqual(values, [5, 1, 4, 2, 3]);
  assert.ok(Number.isNaN(percentile([], 50)));
});

test('median averages the middle pair of an even count', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
});

test('ratio refuses a baseline that is not a positive number', () => {
  assert.equal(ratio(1, 4), 0.25);
  assert.ok(Number.isNaN(ratio(1, 0)));
  assert.ok(Number.isNaN(ratio(1, Number.NaN)));
});

test('figures format for people', () => {
  assert.equal(formatRatio(0.514), '0.51x');
  assert.equal(formatRatio(0.0142), '0.014x');
  assert.equal(formatRatio(2), '2.00x');
  assert.equal(formatRatio(Number.NaN), 'n/a');
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(1536), '1.5 KiB');
  assert.equal(formatBytes(-3 * 1024 * 1024), '-3.0 MiB');
  assert.equal(formatBytes(2 * 1024 ** 3), '2.00 GiB');
  assert.equal(formatMs(0.25), '250 µs');
  assert.equal(formatMs(4.5), '4.50 ms');
  assert.equal(formatMs(45.25), '45.3 ms');
  assert.equal(formatMs(4200), '4.20 s');
  assert.equal(formatRate(1234.4), '1,234');
});

test('targets are judged on the value or the ratio, and NaN never passes', () => {
  const atLeastHalf = { on: 'ratio', op: '>=', threshold: 0.5, text: '>= 0.5x' } as const;
  assert.equal(meets(atLeastHalf, 0, 0.5), true);
  assert.equal(meets(atLeastHalf, 0, 0.49), false);
  assert.equal(meets(atLeastHalf, 0, undefined), false);
  const under = { on: 'value', op: '<', threshold: 100, text: '< 100 ms' } as const;
  assert.equal(meets(under, 99.9, undefined), true);
  assert.equal(meets(under, 100, undefined), false);
  assert.equal(meets(under, Number.NaN, undefined), false);
});

test('a result line names the figures, the baseline, the ratio, the target and the status', () => {
  const input = {
    name: 'creates',
    measured: '1,234/s',
    baseline: 'etcd 2,400/s',
    value: 1234,
    ratio: 1234 / 2400,
    target: { on: 'ratio', op: '>=', threshold: 0.5, text: '>= 0.5x' },
    figures: {},
  } as const;
  const r = result(input);
  assert.equal(formatLine(r), 'creates: 1,234/s vs etcd 2,400/s = 0.51x (target >= 0.5x) ok');
  const missed = result({ ...input, ratio: 0.2 });
  assert.equal(missed.status, 'MISSED');
  assert.match(formatLine(missed), /= 0\.20x \(target >= 0\.5x\) MISSED$/);
  const info = result({ name: 'x', measured: '1', value: 1, figures: {} });
  assert.equal(formatLine(info), 'x: 1 (no target) info');
  const table = formatTable([r, missed]).split('\n');
  assert.equal(table.length, 4);
  assert.match(table[3] as string, /MISSED$/);
});

test('the line splitter joins lines split across chunks and reads fields without parsing', () => {
  const lines: string[] = [];
  const s = new LineSplitter((l) => lines.push(l.toString()));
  s.push(Buffer.from('{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n{"type":"MOD'));
  s.push(Buffer.from('IFIED","object":{"metadata":{"name":"b"}}}\n\n'));
  assert.equal(lines.length, 2);
  assert.equal(eventType(Buffer.from(lines[1] as string)), 'MODIFIED');
  assert.equal(stringField(Buffer.from(lines[0] as string), 'name'), 'a');
  assert.equal(stringField(Buffer.from('{}'), 'name'), undefined);
});

test('profile self time follows the sample deltas and groups by function', () => {
  const frame = (id: number, functionName: string) => ({ id, callFrame: { functionName, url: 'file:///x/dist/a.js', lineNumber: 0 } });
  const rows = selfTimes({ nodes: [frame(1, '(root)'), frame(2, 'hot'), frame(3, 'cold')], startTime: 0, endTime: 4000, samples: [2, 2, 3, 2], timeDeltas: [0, 1000, 1000, 1000] });
  assert.equal(rows[0]?.fn, 'hot dist/a.js:1');
  assert.equal(rows[0]?.selfMs, 2);
  assert.equal(rows[1]?.selfMs, 1);
});
