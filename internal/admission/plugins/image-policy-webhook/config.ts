/**
 * ImagePolicyWebhook's configuration (the plugin's entry of the AdmissionConfiguration, or the
 * file it names): `imagePolicy: {kubeConfigFile, allowTTL, denyTTL, retryBackoff, defaultAllow}`.
 * TTLs are seconds and the backoff milliseconds; 0 means kube's default (300 s, 30 s, 500 ms) and
 * -1 disables; other values must lie in kube's ranges, refused with kube's message.
 */

/** The normalized configuration, in milliseconds. */
export interface ImagePolicyConfig {
  readonly kubeConfigFile: string;
  readonly allowTTLMs: number;
  readonly denyTTLMs: number;
  readonly retryBackoffMs: number;
  readonly defaultAllow: boolean;
}

const ns = 1;
const us = 1000 * ns;
const ms = 1000 * us;
const sec = 1000 * ms;
const minute = 60 * sec;
const hour = 60 * minute;

function fraction(value: number, unit: number): string {
  const whole = Math.trunc(value / unit);
  const rest = value - whole * unit;
  if (rest === 0) return String(whole);
  const digits = String(unit).length - 1;
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
}

/** Go's time.Duration.String() of a duration in nanoseconds. */
export function goDuration(nanos: number): string {
  if (nanos === 0) return '0s';
  const sign = nanos < 0 ? '-' : '';
  const d = Math.abs(nanos);
  if (d < us) return `${sign}${d}ns`;
  if (d < ms) return `${sign}${fraction(d, us)}µs`;
  if (d < sec) return `${sign}${fraction(d, ms)}ms`;
  const h = Math.trunc(d / hour);
  const m = Math.trunc((d - h * hour) / minute);
  const s = d - h * hour - m * minute;
  return `${sign}${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${fraction(s, sec)}s`;
}

/** kube's normalizeConfigDuration, in nanoseconds: -1 disables (0), 0 is the default, else scaled and range-checked. */
function normalize(scale: number, value: number, min: number, max: number, def: number): number {
  if (value === -1) return 0;
  if (value === 0) return def;
  const scaled = value * scale;
  if (scaled < min || scaled > max) throw new Error(`valid value is between ${goDuration(min)} and ${goDuration(max)}, got ${goDuration(scaled)}`);
  return scaled;
}

function integer(v: unknown, field: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new Error(`json: cannot unmarshal ${typeof v} into Go struct field imagePolicyWebhookConfig.imagePolicy.${field} of type time.Duration`);
  return v;
}

/** Parses and normalizes the configuration; throws kube's errors ("no config specified", range errors). */
export function parseImagePolicyConfig(config: unknown): ImagePolicyConfig {
  if (config === undefined || config === null) throw new Error('no config specified');
  if (typeof config !== 'object' || Array.isArray(config)) throw new Error('the ImagePolicyWebhook configuration must be an object');
  const raw = ((config as Record<string, unknown>).imagePolicy ?? {}) as Record<string, unknown>;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('imagePolicy must be an object');
  const retryBackoff = normalize(ms, integer(raw.retryBackoff, 'retryBackoff'), 1, 5 * minute, 500 * ms);
  const allowTTL = normalize(sec, integer(raw.allowTTL, 'allowTTL'), sec, 30 * minute, 300 * sec);
  const denyTTL = normalize(sec, integer(raw.denyTTL, 'denyTTL'), sec, 30 * minute, 30 * sec);
  return {
    kubeConfigFile: typeof raw.kubeConfigFile === 'string' ? raw.kubeConfigFile : '',
    allowTTLMs: allowTTL / ms,
    denyTTLMs: denyTTL / ms,
    retryBackoffMs: retryBackoff / ms,
    defaultAllow: raw.defaultAllow === true,
  };
}
