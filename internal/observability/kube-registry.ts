/**
 * The server's metric registry: a prom-client Registry that applies kube's metric rules to every
 * metric registered on it, whoever created it (`new Counter({..., registers: [registry]})` in any
 * file, or the lean vectors): --disabled-metrics are never exported, metrics deprecated before the
 * current minor version are hidden unless --show-hidden-metrics-for-version, help texts carry the
 * stability level and deprecation as kube prints them, --allow-metric-labels constrain label values,
 * and families without samples are left out of the text, as Go's client leaves them out.
 */
import { Registry, type Metric } from 'prom-client';
import { constrainMetricLabels, type LabelAllowLists } from './label-allow-list.js';
import { isDeprecated, isHidden, lifecycleOf } from './metric-catalogue.js';
import { CounterVec, goFloat, type CounterChild } from './vectors.js';

/** The metric flags (internal/server/options/metrics.ts) as the registry applies them. */
export interface MetricRules {
  /** --disabled-metrics. */
  readonly disabled?: ReadonlySet<string>;
  /** --show-hidden-metrics-for-version was given (validated: the previous minor version). */
  readonly showHidden?: boolean;
  /** --allow-metric-labels / --allow-metric-labels-manifest. */
  readonly allowLists?: LabelAllowLists;
}

/** A family as prom-client's metrics (and the lean vectors) hand it to a registry. */
interface FamilyData {
  readonly name: string;
  readonly help: string;
  readonly type: string;
  readonly values?: ReadonlyArray<{
    readonly value: number | string;
    readonly labels?: Readonly<Record<string, string | number | undefined>>;
    /** prom-client's histograms put the metric's own labels here and only le in labels. */
    readonly sharedLabels?: Readonly<Record<string, string | number | undefined>>;
    readonly metricName?: string;
  }>;
}

const escapeHelp = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabel = (s: string): string => escapeHelp(s).replace(/"/g, '\\"');

/**
 * One family in the text format as kube's Go client writes it: numbers (values and le bounds)
 * in Go's %g form, a histogram's own labels before le.
 */
function formatFamily(data: FamilyData): string {
  const lines = [`# HELP ${data.name} ${escapeHelp(data.help)}`, `# TYPE ${data.name} ${data.type}`];
  for (const v of data.values ?? []) {
    const parts: string[] = [];
    for (const set of [v.sharedLabels, v.labels]) {
      if (!set) continue;
      for (const [k, x] of Object.entries(set)) {
        if (x === undefined || (set === v.labels && v.sharedLabels && k in v.sharedLabels)) continue;
        parts.push(`${k}="${escapeLabel(typeof x === 'number' ? goFloat(x) : x)}"`);
      }
    }
    const value = typeof v.value === 'number' ? goFloat(v.value) : v.value;
    lines.push(`${v.metricName ?? data.name}${parts.length > 0 ? `{${parts.join(',')}}` : ''} ${value}`);
  }
  return lines.join('\n');
}

interface RegisteredShape {
  readonly name: string;
  help: string;
}

/** A Registry with kube's metric rules. Create one per server, before any metric. */
export class KubeRegistry extends Registry {
  private readonly disabled: ReadonlySet<string>;
  private readonly showHidden: boolean;
  private readonly allowLists: LabelAllowLists;
  private readonly registeredTotal: CounterVec;
  private readonly hiddenTotal: CounterChild;
  /** Names of metrics hidden by their deprecation (still usable by their owners, not exported). */
  private readonly hidden = new Set<string>();

  constructor(rules: MetricRules = {}) {
    super();
    this.disabled = rules.disabled ?? new Set();
    this.showHidden = rules.showHidden ?? false;
    this.allowLists = rules.allowLists ?? new Map();
    // component-base's own metrics, registered through the same rules as every other.
    this.registeredTotal = new CounterVec({
      name: 'registered_metrics_total',
      help: 'The count of registered metrics broken by stability level and deprecation version.',
      labelNames: ['stability_level', 'deprecated_version'],
    });
    const disabledTotal = new CounterVec({ name: 'disabled_metrics_total', help: 'The count of disabled metrics.' });
    const hiddenTotal = new CounterVec({ name: 'hidden_metrics_total', help: 'The count of hidden metrics.' });
    this.hiddenTotal = hiddenTotal.labels();
    disabledTotal.labels().inc(this.disabled.size);
    for (const m of [this.registeredTotal, disabledTotal, hiddenTotal]) this.registerMetric(m as unknown as Metric);
  }

  /** Registers metric unless disabled or hidden; annotates its help and constrains its labels. */
  override registerMetric<T extends string>(metric: Metric<T>): void {
    const m = metric as unknown as RegisteredShape;
    if (this.disabled.has(m.name)) return;
    const lifecycle = lifecycleOf(m.name);
    const deprecated = lifecycle?.deprecatedVersion;
    if (deprecated && isHidden(deprecated) && !this.showHidden) {
      if (!this.hidden.has(m.name)) {
        this.hidden.add(m.name);
        this.hiddenTotal.inc();
      }
      return;
    }
    if (this.getSingleMetric(m.name) === undefined) {
      if (deprecated && isDeprecated(deprecated)) m.help = `(Deprecated since ${deprecated}) ${m.help}`;
      if (lifecycle) m.help = `[${lifecycle.stability}] ${m.help}`;
      const allowed = this.allowLists.get(m.name);
      if (allowed) constrainMetricLabels(metric, allowed);
      this.registeredTotal?.labels(lifecycle?.stability ?? '', deprecated ?? '').inc();
    }
    super.registerMetric(metric);
  }

  /** Whether a metric of this name is exported (registered, neither disabled nor hidden). */
  exports(name: string): boolean {
    return this.getSingleMetric(name) !== undefined;
  }

  /** The text exposition (0.0.4), without families that have no samples, as Go's client writes it. */
  override async metrics(): Promise<string> {
    const parts = await Promise.all(
      this.getMetricsAsArray().map(async (metric) => {
        const source = metric as unknown as { getForPromString?: () => Promise<FamilyData>; get(): Promise<FamilyData> };
        const data = source.getForPromString ? await source.getForPromString() : await source.get();
        if (!data.values || data.values.length === 0) return undefined;
        return formatFamily(data as FamilyData);
      }),
    );
    const text = parts.filter((p): p is string => p !== undefined).join('\n');
    return text === '' ? '' : `${text}\n`;
  }
}
