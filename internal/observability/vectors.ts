/**
 * Lean metric vectors for the hot path (every request, every etcd call, every watch event):
 * a child per label tuple, made once by labels(...) and kept by the caller, whose inc/observe is
 * a few field updates with no hashing (a prom-client child hashes its labels on every call, about
 * 0.7 µs). They register on a prom-client Registry like any metric, with label names in sorted
 * order (le last) and bucket bounds in Go's %g form ("1e+06"), as kube's Go client prints them.
 */
import type { Metric, Registry } from 'prom-client';

/** One exported sample, in prom-client's shape (the registry formats it). */
interface Sample {
  readonly labels: Record<string, string>;
  readonly value: number;
  readonly metricName?: string;
}

/** What a vector is built from. */
export interface VecOptions {
  readonly name: string;
  readonly help: string;
  readonly labelNames?: readonly string[];
  /** Registries that export it (registered at construction, as prom-client metrics are). */
  readonly registers?: readonly Registry[];
  /** Runs before each export (scrape-time collectors); may fill in children. */
  readonly collect?: () => void | Promise<void>;
}

/** A number as Go's strconv.FormatFloat(v, 'g', -1, 64) writes it, which is how kube prints samples. */
export function goFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return '0';
  const [mantissa, exp] = v.toExponential().split('e') as [string, string];
  const x = Number(exp);
  if (x >= -4 && x < 6) return String(v);
  const digits = Math.abs(x) < 10 ? `0${Math.abs(x)}` : String(Math.abs(x));
  return `${mantissa}e${x < 0 ? '-' : '+'}${digits}`;
}

/** Shared by every vector: children by label tuple, export in kube's label order. */
abstract class Vec<C> {
  readonly aggregator = 'sum';
  readonly name: string;
  /** Mutable: the registry prefixes kube's stability level ("[ALPHA] ") when it registers the vector. */
  help: string;
  readonly labelNames: readonly string[];
  abstract readonly type: string;
  private readonly collect: (() => void | Promise<void>) | undefined;
  /** Positions of labelNames in sorted name order. */
  private readonly order: readonly number[];
  protected readonly children = new Map<string, { readonly labels: Record<string, string>; readonly child: C }>();

  constructor(opts: VecOptions) {
    this.name = opts.name;
    this.help = opts.help;
    this.labelNames = opts.labelNames ?? [];
    this.collect = opts.collect;
    this.order = this.labelNames.map((_, i) => i).sort((a, b) => ((this.labelNames[a] as string) < (this.labelNames[b] as string) ? -1 : 1));
    for (const r of opts.registers ?? []) r.registerMetric(this as unknown as Metric);
  }

  protected abstract newChild(): C;

  /**
   * The child for these label values (in labelNames order, or one object by name); the same
   * child for the same values. Callers on a hot path keep the child rather than call this per event.
   */
  labels(...values: string[] | [Record<string, string>]): C {
    const first = values[0];
    const list = typeof first === 'object' ? this.labelNames.map((n) => String(first[n] ?? '')) : (values as string[]);
    const key = list.join('\u0000');
    let entry = this.children.get(key);
    if (!entry) {
      if (list.length !== this.labelNames.length) throw new Error(`${this.name}: ${this.labelNames.length} label values expected, got ${list.length}`);
      const labels: Record<string, string> = {};
      for (const i of this.order) labels[this.labelNames[i] as string] = list[i] as string;
      entry = { labels, child: this.newChild() };
      this.children.set(key, entry);
    }
    return entry.child;
  }

  /** Forgets every child (prom-client's reset; registry.resetMetrics calls it). */
  reset(): void {
    this.children.clear();
  }

  protected abstract samples(labels: Record<string, string>, child: C, out: Sample[]): void;

  /** The metric as prom-client's registry exports it. */
  async get(): Promise<{ name: string; help: string; type: string; values: Sample[]; aggregator: string }> {
    if (this.collect) await this.collect();
    const values: Sample[] = [];
    for (const { labels, child } of this.children.values()) this.samples(labels, child, values);
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

/** A counter's child. */
export class CounterChild {
  value = 0;
  inc(n = 1): void {
    this.value += n;
  }
}

/** A vector of counters. */
export class CounterVec extends Vec<CounterChild> {
  readonly type = 'counter';
  protected newChild(): CounterChild {
    return new CounterChild();
  }
  protected samples(labels: Record<string, string>, c: CounterChild, out: Sample[]): void {
    out.push({ labels, value: c.value });
  }
}

/** A gauge's child. */
export class GaugeChild {
  value = 0;
  inc(n = 1): void {
    this.value += n;
  }
  dec(n = 1): void {
    this.value -= n;
  }
  set(v: number): void {
    this.value = v;
  }
}

/** A vector of gauges. */
export class GaugeVec extends Vec<GaugeChild> {
  readonly type = 'gauge';
  protected newChild(): GaugeChild {
    return new GaugeChild();
  }
  protected samples(labels: Record<string, string>, c: GaugeChild, out: Sample[]): void {
    out.push({ labels, value: c.value });
  }
  /** Drops one child (a series that no longer exists). */
  remove(...values: string[]): void {
    this.children.delete(values.join('\u0000'));
  }
}

/** A histogram's child: per-bucket counts (not cumulative), sum and count. */
export class HistogramChild {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(private readonly bounds: Float64Array) {
    this.counts = new Float64Array(bounds.length);
  }
  observe(v: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > (b[i] as number)) i++;
    if (i < b.length) (this.counts[i] as number)++;
    this.sum += v;
    this.count++;
  }
}

/** Histogram options: the bucket upper bounds, ascending (+Inf is implied). */
export interface HistogramVecOptions extends VecOptions {
  readonly buckets: readonly number[];
}

/** A vector of histograms. */
export class HistogramVec extends Vec<HistogramChild> {
  readonly type = 'histogram';
  readonly bounds: Float64Array;
  private readonly le: readonly string[];
  constructor(opts: HistogramVecOptions) {
    super(opts);
    this.bounds = Float64Array.from(opts.buckets);
    this.le = opts.buckets.map(goFloat);
  }
  protected newChild(): HistogramChild {
    return new HistogramChild(this.bounds);
  }
  protected samples(labels: Record<string, string>, c: HistogramChild, out: Sample[]): void {
    const bucket = `${this.name}_bucket`;
    let acc = 0;
    for (let i = 0; i < this.le.length; i++) {
      acc += c.counts[i] as number;
      out.push({ labels: { ...labels, le: this.le[i] as string }, value: acc, metricName: bucket });
    }
    out.push({ labels: { ...labels, le: '+Inf' }, value: c.count, metricName: bucket });
    out.push({ labels, value: c.sum, metricName: `${this.name}_sum` });
    out.push({ labels, value: c.count, metricName: `${this.name}_count` });
  }
}

/** A summary's child without quantiles (kube's summaries set no objectives): sum and count. */
export class SummaryChild {
  sum = 0;
  count = 0;
  observe(v: number): void {
    this.sum += v;
    this.count++;
  }
}

/** A vector of summaries without quantiles. */
export class SummaryVec extends Vec<SummaryChild> {
  readonly type = 'summary';
  protected newChild(): SummaryChild {
    return new SummaryChild();
  }
  protected samples(labels: Record<string, string>, c: SummaryChild, out: Sample[]): void {
    out.push({ labels, value: c.sum, metricName: `${this.name}_sum` });
    out.push({ labels, value: c.count, metricName: `${this.name}_count` });
  }
}
