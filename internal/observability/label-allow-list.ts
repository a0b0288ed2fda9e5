/**
 * --allow-metric-labels: per metric and label, the values a label may take; any other value is
 * recorded as "unexpected" (kube's MetricLabelAllowList). Applied to a metric when it registers,
 * by wrapping the methods that take label values (labels, inc, set, observe, ...), so it holds
 * for prom-client metrics and the lean vectors alike, whoever created them.
 */

/** metric name -> label name -> allowed values. */
export type LabelAllowLists = ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>;

/** The value recorded in place of one outside the allow-list. */
export const unexpectedLabelValue = 'unexpected';

/** Methods whose first argument may be a label object. */
const objectMethods = ['inc', 'dec', 'set', 'setToCurrentTime', 'observe', 'startTimer', 'zero'] as const;
/** Methods that take label values positionally (or one label object). */
const valueMethods = ['labels', 'remove'] as const;

type AnyFn = (...args: unknown[]) => unknown;

/** The metric shape the allow-list needs: its label names and methods. */
interface LabelledMetric {
  readonly labelNames?: readonly string[];
  [method: string]: unknown;
}

/**
 * Makes metric record values outside allowed as "unexpected". allowed maps label names to their
 * allowed values; labels the metric does not have are ignored (as kube ignores them).
 */
export function constrainMetricLabels(metric: object, allowed: ReadonlyMap<string, ReadonlySet<string>>): void {
  const m = metric as LabelledMetric;
  const names = m.labelNames ?? [];
  const positions: Array<[number, ReadonlySet<string>]> = [];
  names.forEach((n, i) => {
    const set = allowed.get(n);
    if (set) positions.push([i, set]);
  });
  if (positions.length === 0) return;

  const constrainObject = (o: Record<string, unknown>): Record<string, unknown> => {
    let out = o;
    for (const [i, set] of positions) {
      const name = names[i] as string;
      const v = o[name];
      if (v !== undefined && !set.has(String(v))) {
        if (out === o) out = { ...o };
        out[name] = unexpectedLabelValue;
      }
    }
    return out;
  };
  const constrainValues = (values: unknown[]): unknown[] => {
    let out = values;
    for (const [i, set] of positions) {
      const v = values[i];
      if (v !== undefined && !set.has(String(v))) {
        if (out === values) out = [...values];
        out[i] = unexpectedLabelValue;
      }
    }
    return out;
  };

  const wrapObjectMethod = (original: AnyFn): AnyFn =>
    function (this: unknown, ...args: unknown[]) {
      const first = args[0];
      if (first !== null && typeof first === 'object') args[0] = constrainObject(first as Record<string, unknown>);
      return original.apply(this, args);
    };
  for (const method of objectMethods) {
    // An accessor, because prom-client's Counter assigns its inc after the registry has seen it
    // (registration happens in the base constructor): whatever is assigned later is wrapped too.
    let wrapped = typeof m[method] === 'function' ? wrapObjectMethod(m[method] as AnyFn) : undefined;
    Object.defineProperty(m, method, {
      configurable: true,
      enumerable: false,
      get: () => wrapped,
      set: (fn: unknown) => {
        wrapped = typeof fn === 'function' ? wrapObjectMethod(fn as AnyFn) : undefined;
      },
    });
  }
  for (const method of valueMethods) {
    const original = m[method];
    if (typeof original !== 'function') continue;
    m[method] = function (this: unknown, ...args: unknown[]) {
      const first = args[0];
      const mapped = first !== null && typeof first === 'object' ? [constrainObject(first as Record<string, unknown>)] : constrainValues(args);
      return (original as AnyFn).apply(this, mapped);
    };
  }
}
