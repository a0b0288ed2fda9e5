import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KubeRegistry } from './kube-registry.js';
import { CounterVec, GaugeVec, HistogramVec, goFloat } from './vectors.js';

describe('goFloat', () => {
  it("writes numbers as Go's strconv.FormatFloat(v, 'g', -1, 64)", () => {
    const cases: Array<[number, string]> = [
      [0, '0'],
      [1, '1'],
      [0.005, '0.005'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [1.25, '1.25'],
      [100000, '100000'],
      [123456.5, '123456.5'],
      [1e6, '1e+06'],
      [1234567, '1.234567e+06'],
      [1e9, '1e+09'],
      [-2.5e7, '-2.5e+07'],
      [1e21, '1e+21'],
      [1e100, '1e+100'],
      [Infinity, '+Inf'],
      [NaN, 'NaN'],
    ];
    for (const [v, want] of cases) assert.equal(goFloat(v), want, String(v));
  });
});

describe('lean vectors', () => {
  it('keep one child per label tuple and print sorted labels, cumulative buckets, le last', async () => {
    const registry = new KubeRegistry();
    const h = new HistogramVec({ name: 'x_seconds', help: 'h', labelNames: ['verb', 'code'], buckets: [0.1, 1], registers: [registry] });
    const child = h.labels('GET', '200');
    assert.equal(h.labels('GET', '200'), child);
    assert.equal(h.labels({ verb: 'GET', code: '200' }), child);
    child.observe(0.05);
    child.observe(0.1);
    child.observe(0.5);
    child.observe(7);
    const text = await registry.metrics();
    assert.match(text, /^x_seconds_bucket\{code="200",verb="GET",le="0\.1"\} 2$/m);
    assert.match(text, /^x_seconds_bucket\{code="200",verb="GET",le="1"\} 3$/m);
    assert.match(text, /^x_seconds_bucket\{code="200",verb="GET",le="\+Inf"\} 4$/m);
    assert.match(text, /^x_seconds_sum\{code="200",verb="GET"\} 7\.65$/m);
    assert.match(text, /^x_seconds_count\{code="200",verb="GET"\} 4$/m);
    assert.throws(() => h.labels('GET'), /2 label values expected, got 1/);
  });

  it('leave families without samples out of the text, as Go does', async () => {
    const registry = new KubeRegistry();
    const c = new CounterVec({ name: 'y_total', help: 'h', labelNames: ['a'], registers: [registry] });
    assert.doesNotMatch(await registry.metrics(), /y_total/);
    c.labels('1').inc(2);
    assert.match(await registry.metrics(), /^y_total\{a="1"\} 2$/m);
  });

  it('run a collector before each export', async () => {
    const registry = new KubeRegistry();
    let n = 0;
    const g: GaugeVec = new GaugeVec({ name: 'z', help: 'h', labelNames: ['id'], registers: [registry], collect: () => g.labels('a').set(++n) });
    assert.match(await registry.metrics(), /^z\{id="a"\} 1$/m);
    assert.match(await registry.metrics(), /^z\{id="a"\} 2$/m);
  });
});
