/**
 * --register-with-taints and KubeletConfiguration.registerWithTaints: "key=value:Effect" or
 * "key:Effect" specs, checked as kube's taint parser checks them (qualified-name key, label-value
 * value, one of the three effects).
 */
import type { Taint } from '../interface.js';

const qualifiedName = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const effects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/** Checks one taint (from a spec or a config file's object); throws kube's message. */
export function checkTaint(taint: { key?: unknown; value?: unknown; effect?: unknown }, spec: string): Taint {
  const key = typeof taint.key === 'string' ? taint.key : '';
  const value = typeof taint.value === 'string' ? taint.value : undefined;
  if (!qualifiedName.test(key) || (key.includes('/') && (key.split('/')[0] as string).length > 253)) throw new Error(`invalid taint spec: ${spec}, name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`);
  if (value !== undefined && (value.length > 63 || !labelValue.test(value))) throw new Error(`invalid taint spec: ${spec}, a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`);
  if (!(effects as readonly unknown[]).includes(taint.effect)) throw new Error(`invalid taint effect: ${String(taint.effect ?? '')}, unsupported taint effect`);
  return { key, ...(value ? { value } : {}), effect: taint.effect as Taint['effect'] };
}

/** Parses "key=value:Effect" (or "key:Effect"). */
export function parseTaintSpec(spec: string): Taint {
  const colon = spec.lastIndexOf(':');
  if (colon < 0) throw new Error(`invalid taint spec: ${spec}`);
  const effect = spec.slice(colon + 1);
  const kv = spec.slice(0, colon);
  const eq = kv.indexOf('=');
  if (eq >= 0 && kv.indexOf('=', eq + 1) >= 0) throw new Error(`invalid taint spec: ${spec}`);
  return checkTaint(eq < 0 ? { key: kv, effect } : { key: kv.slice(0, eq), value: kv.slice(eq + 1), effect }, spec);
}
