/**
 * kube's TimingRatioHistogram (component-base/metrics): a histogram of a ratio that changes over
 * time, where each value is weighted by how long, in nanoseconds, it held ("observations, at the
 * end of every nanosecond, of ..."). Bucket counts and the count are nanoseconds, the sum is the
 * integral of the ratio over them. Updating is a few arithmetic operations, fit for every
 * request; the time since the last change is folded in when scraped.
 */
import { performance } from 'node:perf_hooks';
import type { Metric, Registry } from 'prom-client';
import { goFloat } from '../../observability/vectors.js';

/** One series: a numerator over a denominator, integrated over time. */
export class TimingRatioChild {
  private numerator = 0;
  private denominator: number;
  private last = performance.now();
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    private readonly bounds: Float64Array,
    initialDenominator: number,
  ) {
    this.counts = new Float64Array(bounds.length + 1);
    this.denominator = initialDenominator;
  }

  /** The numerator becomes v at now (performance.now() milliseconds, which callers usually have at hand). */
  set(v: number, now = performance.now()): void {
    this.accumulate(now);
    this.numerator = v;
  }

  /** The numerator changes by d at now. */
  add(d: number, now = performance.now()): void {
    this.accumulate(now);
    this.numerator += d;
  }

  /** The denominator becomes d (a limit changed). */
  setDenominator(d: number, now = performance.now()): void {
    this.accumulate(now);
    this.denominator = d;
  }

  /** Folds the time until now into the buckets. */
  accumulate(now = performance.now()): void {
    if (now <= this.last) return;
    const ns = (now - this.last) * 1e6;
    this.last = now;
    if (ns <= 0) return;
    const ratio = this.denominator === 0 ? 0 : this.numerator / this.denominator;
    const b = this.bounds;
    let i = 0;
    while (i < b.length && ratio > (b[i] as number)) i++;
    (this.counts[i] as number) += ns;
    this.sum += ratio * ns;
    this.count += ns;
  }
}

/** What a vector is built from. */
export interface TimingRatioVecOptions {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly buckets: readonly number[];
  readonly registers: readonly Registry[];
}

/** A vector of timing ratio histograms, registered like any metric. */
export class TimingRatioVec {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  help: string;
  readonly labelNames: readonly string[];
  private readonly bounds: Float64Array;
  private readonly le: readonly string[];
  private readonly children = new Map<string, { readonly labels: Record<string, string>; readonly child: TimingRatioChild }>();

  constructor(opts: TimingRatioVecOptions) {
    this.name = opts.name;
    this.help = opts.help;
    this.labelNames = opts.labelNames;
    this.bounds = Float64Array.from(opts.buckets);
    this.le = opts.buckets.map(goFloat);
    for (const r of opts.registers) r.registerMetric(this as unknown as Metric);
  }

  /** The child for these label values (in labelNames order), made with this initial denominator. */
  child(values: readonly string[], initialDenominator = 1): TimingRatioChild {
    const key = values.join('\u0000');
    let entry = this.children.get(key);
    if (!entry) {
      const labels: Record<string, string> = {};
      const order = this.labelNames.map((n, i) => [n, values[i] ?? ''] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
      for (const [n, v] of order) labels[n] = v;
      entry = { labels, child: new TimingRatioChild(this.bounds, initialDenominator) };
      this.children.set(key, entry);
    }
    return entry.child;
  }

  /** Forgets every series. */
  reset(): void {
    this.children.clear();
  }

  /** The metric as prom-client's registry exports it. */
  async get(): Promise<{ name: string; help: string; type: string; values: unknown[]; aggregator: string }> {
    const values: unknown[] = [];
    const bucket = `${this.name}_bucket`;
    for (const { labels, child } of this.children.values()) {
      child.accumulate();
      let acc = 0;
      for (let i = 0; i < this.le.length; i++) {
        acc += child.counts[i] as number;
        values.push({ labels: { ...labels, le: this.le[i] }, value: Math.round(acc), metricName: bucket });
      }
      values.push({ labels: { ...labels, le: '+Inf' }, value: Math.round(child.count), metricName: bucket });
      values.push({ labels, value: child.sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: Math.round(child.count), metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}
