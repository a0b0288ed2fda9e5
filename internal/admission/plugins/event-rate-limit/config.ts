/**
 * EventRateLimit's configuration (Configuration of eventratelimit.admission.k8s.io/v1alpha1): a
 * non-empty list of limits, each of type Server, Namespace, User or SourceAndObject with a positive
 * qps and burst and, except for Server, an optional LRU cacheSize (default 4096). Errors carry kube's
 * field-error texts.
 */

/** The limit types. */
export type LimitType = 'Server' | 'Namespace' | 'User' | 'SourceAndObject';

/** One limit. */
export interface EventLimit {
  readonly type: LimitType;
  readonly qps: number;
  readonly burst: number;
  readonly cacheSize: number;
}

const limitTypes: readonly LimitType[] = ['Server', 'Namespace', 'User', 'SourceAndObject'];

/** Go's %#v / %v of a field value in kube's "Invalid value" text. */
function goValue(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

function int32(v: unknown): number {
  return typeof v === 'number' && Number.isInteger(v) ? v : 0;
}

/** Decodes and validates config; throws an Error with kube's message. */
export function parseEventRateLimitConfiguration(config: unknown): EventLimit[] {
  let limitsValue: unknown;
  if (config !== undefined && config !== null) {
    if (typeof config !== 'object' || Array.isArray(config)) throw new Error("couldn't get version/kind; json parse error: expected an object");
    const c = config as Record<string, unknown>;
    if (typeof c.apiVersion !== 'string' || typeof c.kind !== 'string' || !c.apiVersion || !c.kind) {
      throw new Error(`Object 'Kind' is missing in '${JSON.stringify(config)}'`);
    }
    if (c.apiVersion !== 'eventratelimit.admission.k8s.io/v1alpha1' || c.kind !== 'Configuration') {
      throw new Error(`no kind "${c.kind}" is registered for version "${c.apiVersion}" in scheme "pkg/runtime/scheme.go:100"`);
    }
    limitsValue = c.limits;
  }
  const raw = Array.isArray(limitsValue) ? (limitsValue as Record<string, unknown>[]) : [];
  const errs: string[] = [];
  if (raw.length === 0) errs.push('limits: Invalid value: []eventratelimit.Limit(nil): must not be empty');
  const limits = raw.map((l, i) => {
    const path = `limits[${i}]`;
    const type = typeof l?.type === 'string' ? l.type : '';
    if (!limitTypes.includes(type as LimitType)) {
      errs.push(`${path}.type: Unsupported value: ${JSON.stringify(type)}: supported values: ${limitTypes.map((t) => `"${t}"`).join(', ')}`);
    }
    const burst = int32(l?.burst);
    const qps = int32(l?.qps);
    const cacheSize = int32(l?.cacheSize);
    if (burst <= 0) errs.push(`${path}.burst: Invalid value: ${goValue(burst)}: must be positive`);
    if (qps <= 0) errs.push(`${path}.qps: Invalid value: ${goValue(qps)}: must be positive`);
    if (type !== 'Server' && cacheSize < 0) errs.push(`${path}.cacheSize: Invalid value: ${goValue(cacheSize)}: must not be negative`);
    return { type: type as LimitType, qps, burst, cacheSize: cacheSize === 0 ? 4096 : cacheSize };
  });
  if (errs.length === 1) throw new Error(errs[0]);
  if (errs.length > 1) throw new Error(`[${errs.join(', ')}]`);
  return limits;
}
