/**
 * The metrics flags (kube's component-base metrics options and the etcd metric poll intervals):
 * --show-hidden-metrics-for-version, --disabled-metrics, --allow-metric-labels,
 * --allow-metric-labels-manifest, --etcd-count-metric-poll-period and
 * --etcd-db-metric-poll-interval, with kube's names, defaults, help texts and messages. The
 * registry (internal/observability/kube-registry.ts) applies the first four to every metric.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { LabelAllowLists } from '../../observability/label-allow-list.js';
import { previousMinorVersion } from '../../observability/metric-catalogue.js';
import { formatGoDuration } from './duration.js';
import { durationFlag, FlagError, stringSliceFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated metrics options. */
export interface MetricsOptions {
  /** --show-hidden-metrics-for-version ("" or the previous minor version). */
  readonly showHiddenMetricsForVersion: string;
  /** --disabled-metrics: fully qualified names never exported. */
  readonly disabledMetrics: readonly string[];
  /** --allow-metric-labels, else --allow-metric-labels-manifest: allowed label values per metric. */
  readonly allowLists: LabelAllowLists;
  /** --etcd-count-metric-poll-period in ms (0: apiserver_storage_objects is not collected). */
  readonly etcdCountMetricPollPeriodMs: number;
  /** --etcd-db-metric-poll-interval in ms (0: the per-endpoint database size is not polled). */
  readonly etcdDbMetricPollIntervalMs: number;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly metrics?: MetricsOptions;
  }
}

/** The defaults. */
export const defaultMetricsOptions: MetricsOptions = {
  showHiddenMetricsForVersion: '',
  disabledMetrics: [],
  allowLists: new Map(),
  etcdCountMetricPollPeriodMs: 60_000,
  etcdDbMetricPollIntervalMs: 30_000,
};

const metricNamePattern = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const metricNameRegex = new RegExp(`^${metricNamePattern}$`);
const allowListKeyRegex = new RegExp(`^${metricNamePattern},[a-zA-Z_][a-zA-Z0-9_]*$`);
const allowListKeyError = '--allow-metric-labels must have a list of kv pair with format `metricName,labelName=labelValue, labelValue,...`';

/** One occurrence of a pflag StringToString flag: `k=v` whole, or CSV `"k1=v1","k2=v2"` when it has several `=`. */
function stringToString(name: string, value: string, into: Map<string, string>): void {
  const invalid = (why: string): FlagError => new FlagError(`invalid argument ${JSON.stringify(value)} for "--${name}" flag: ${why}`);
  const equals = value.split('=').length - 1;
  if (equals === 0) throw invalid(`${value} must be formatted as key=value`);
  const pairs = equals === 1 ? [value.replace(/^"+|"+$/g, '')] : stringSliceFlag(name, value);
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq < 0) throw invalid(`${pair} must be formatted as key=value`);
    into.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
}

/** "metric,label" -> "v1,v2" entries as allow-lists; throws on a malformed key. */
function allowListsOf(mapping: ReadonlyMap<string, string>): LabelAllowLists {
  const out = new Map<string, Map<string, ReadonlySet<string>>>();
  for (const [key, values] of mapping) {
    if (!allowListKeyRegex.test(key)) throw new FlagError(allowListKeyError);
    const [metric, label] = key.split(',') as [string, string];
    let labels = out.get(metric);
    if (!labels) out.set(metric, (labels = new Map()));
    labels.set(label, new Set(values.split(',')));
  }
  return out;
}

/** The manifest's mapping (a YAML map of "metric,label" to "v1,v2"), refused with kube's messages. */
function manifestMapping(path: string): Map<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new FlagError(`failed to read allow list manifest: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new FlagError(`failed to parse allow list manifest: ${(err as Error).message}`);
  }
  const out = new Map<string, string>();
  if (doc === null || doc === undefined) return out;
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new FlagError('failed to parse allow list manifest: the manifest must be a map of "metric,label" to "value1,value2"');
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    if (v !== null && typeof v === 'object') throw new FlagError(`failed to parse allow list manifest: the value of ${JSON.stringify(k)} must be a string`);
    out.set(k, v === null ? '' : String(v));
  }
  return out;
}

function pollFlag(name: string, value: unknown): number {
  const ms = durationFlag(name, value);
  if (ms < 0) throw new FlagError(`--${name} ${formatGoDuration(ms)} must not be negative`);
  return ms;
}

/** The metrics flag group. */
export const metricsFlags: FlagGroup<'metrics'> = {
  repeatable: ['disabled-metrics', 'allow-metric-labels'],
  register(y) {
    y.option('show-hidden-metrics-for-version', {
      type: 'string',
      describe:
        "The previous version for which you want to show hidden metrics. Only the previous minor version is meaningful, other values will not be allowed. The format is <major>.<minor>, e.g.: '1.16'. The purpose of this format is make sure you have the opportunity to notice if the next release hides additional metrics, rather than being surprised when they are permanently removed in the release after that.",
    });
    y.option('disabled-metrics', {
      type: 'string',
      describe: 'This flag provides an escape hatch for misbehaving metrics. You must provide the fully qualified metric name in order to disable it. Disclaimer: disabling metrics is higher in precedence than showing hidden metrics.',
    });
    y.option('allow-metric-labels', {
      type: 'string',
      describe:
        "The map from metric-label to value allow-list of this label. The key's format is <MetricName>,<LabelName>. The value's format is <allowed_value>,<allowed_value>...e.g. metric1,label1='v1,v2,v3', metric1,label2='v1,v2,v3' metric2,label1='v1,v2,v3'.",
    });
    y.option('allow-metric-labels-manifest', {
      type: 'string',
      describe: 'The path to the manifest file that contains the allow-list mapping. The format of the file is the same as the flag --allow-metric-labels. Note that the flag --allow-metric-labels will override the manifest file.',
    });
    y.option('etcd-count-metric-poll-period', { type: 'string', default: '1m0s', describe: 'Frequency of polling etcd for number of resources per type. 0 disables the metric collection.' });
    y.option('etcd-db-metric-poll-interval', { type: 'string', default: '30s', describe: 'The interval of requests to poll etcd and update metric. 0 disables the metric collection' });
  },
  validate(p) {
    const errors: string[] = [];
    const attempt = <T>(fn: () => T, fallback: T): T => {
      try {
        return fn();
      } catch (err) {
        if (!(err instanceof FlagError)) throw err;
        errors.push(err.message);
        return fallback;
      }
    };
    const showHidden = p['show-hidden-metrics-for-version'] === undefined ? '' : String(p['show-hidden-metrics-for-version']);
    if (showHidden !== '' && showHidden !== previousMinorVersion()) {
      errors.push(`--show-hidden-metrics-for-version must be omitted or have the value '${previousMinorVersion()}'. Only the previous minor version is allowed`);
    }
    const disabledMetrics = attempt(() => stringSliceFlag('disabled-metrics', p['disabled-metrics']), []);
    for (const name of disabledMetrics) {
      if (!metricNameRegex.test(name)) errors.push(`--disabled-metrics must be fully qualified metric names matching ${JSON.stringify(metricNameRegex.source)}, got ${JSON.stringify(name)}`);
    }
    const occurrences = p['allow-metric-labels'] as string[] | undefined;
    const cli = attempt(() => {
      if (occurrences === undefined) return undefined;
      const mapping = new Map<string, string>();
      for (const o of occurrences) stringToString('allow-metric-labels', o, mapping);
      return allowListsOf(mapping);
    }, undefined);
    const manifestPath = p['allow-metric-labels-manifest'] === undefined ? '' : String(p['allow-metric-labels-manifest']);
    const manifest = manifestPath === '' ? undefined : attempt(() => allowListsOf(manifestMapping(manifestPath)), undefined);
    const etcdCountMetricPollPeriodMs = attempt(() => pollFlag('etcd-count-metric-poll-period', p['etcd-count-metric-poll-period'] ?? '1m0s'), 0);
    const etcdDbMetricPollIntervalMs = attempt(() => pollFlag('etcd-db-metric-poll-interval', p['etcd-db-metric-poll-interval'] ?? '30s'), 0);
    if (errors.length > 0) throw new FlagError(errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`);
    return {
      metrics: {
        showHiddenMetricsForVersion: showHidden,
        disabledMetrics,
        // The flag, when given, overrides the manifest entirely (kube's Apply).
        allowLists: cli ?? manifest ?? new Map(),
        etcdCountMetricPollPeriodMs,
        etcdDbMetricPollIntervalMs,
      },
    };
  },
};
