/**
 * Eviction thresholds as kubelet reads them: the flags' "<signal><operator><value>" lists
 * ("memory.available<100Mi,nodefs.available<10%") and KubeletConfiguration's maps
 * ({"memory.available": "100Mi"}), grace periods ("memory.available=1m30s"), with kubelet's
 * eviction.ParseThresholdConfig rules and messages.
 */
import type { EvictionThreshold } from '../interface.js';
import { parseGoDuration } from '../../server/options/duration.js';
import { parseQuantity } from '../../validation/quantity.js';

/** The eviction signals kubelet 1.33 knows on Linux. */
export const evictionSignals: readonly string[] = [
  'memory.available',
  'allocatableMemory.available',
  'nodefs.available',
  'nodefs.inodesFree',
  'imagefs.available',
  'imagefs.inodesFree',
  'containerfs.available',
  'containerfs.inodesFree',
  'pid.available',
];

/** Splits a flag's "<signal><op><value>,..." list into a signal -> value map (kubelet's LangleSeparatedMapStringString). */
export function parseLangleMap(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of text.split(',').map((s) => s.trim()).filter((s) => s.length > 0)) {
    const lt = item.indexOf('<');
    if (lt < 0) throw new Error(`malformed pair, expect string<string`);
    out[item.slice(0, lt).trim()] = item.slice(lt + 1).trim();
  }
  return out;
}

/** Splits "<signal>=<duration>,..." (--eviction-soft-grace-period) into a map. */
export function parseEqualsMap(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of text.split(',').map((s) => s.trim()).filter((s) => s.length > 0)) {
    const eq = item.indexOf('=');
    if (eq < 0) throw new Error(`malformed pair, expect string=string`);
    out[item.slice(0, eq).trim()] = item.slice(eq + 1).trim();
  }
  return out;
}

function thresholdValue(signal: string, value: string): Pick<EvictionThreshold, 'quantity' | 'percentage'> {
  if (value.endsWith('%')) {
    const pct = Number(value.slice(0, -1));
    if (value.length === 1 || !Number.isFinite(pct)) throw new Error(`invalid percentage: ${value}`);
    if (pct <= 0) throw new Error(`eviction percentage threshold ${signal} must be positive: ${value}`);
    if (pct > 100) throw new Error(`eviction percentage threshold ${signal} must not exceed 100%: ${value}`);
    return { percentage: pct / 100 };
  }
  const q = parseQuantity(value);
  if (q.sign() < 0) throw new Error(`eviction threshold ${signal} must be positive: ${value}`);
  return { quantity: Number(q.value()) };
}

/**
 * Thresholds from a signal -> value map (hard, or soft with gracePeriods). A threshold of 0 or 0%
 * is dropped, as kubelet drops it: that is how a default threshold is turned off.
 */
export function evictionThresholds(values: Readonly<Record<string, string>>, gracePeriods?: Readonly<Record<string, string>>): EvictionThreshold[] {
  const out: EvictionThreshold[] = [];
  for (const [signal, value] of Object.entries(values)) {
    if (!evictionSignals.includes(signal)) throw new Error(`unsupported eviction signal ${signal}`);
    if (value.endsWith('%') && Number(value.slice(0, -1)) === 0) continue;
    const parsed = value.endsWith('%') ? thresholdValue(signal, value) : parseQuantity(value).isZero() ? undefined : thresholdValue(signal, value);
    if (!parsed) continue;
    let gracePeriodMs: number | undefined;
    if (gracePeriods) {
      const text = gracePeriods[signal];
      if (text === undefined) throw new Error(`threshold for ${signal} does not have a grace period (--eviction-soft-grace-period)`);
      gracePeriodMs = parseGoDuration(text);
      if (gracePeriodMs < 0) throw new Error(`invalid eviction grace period specified: ${text}, must be a positive value`);
    }
    out.push({ signal, ...parsed, ...(gracePeriodMs !== undefined ? { gracePeriodMs } : {}) });
  }
  for (const signal of Object.keys(gracePeriods ?? {})) {
    if (!evictionSignals.includes(signal)) throw new Error(`unsupported eviction signal ${signal}`);
    if (values[signal] === undefined) throw new Error(`grace period specified for signal ${signal} that has no soft eviction threshold (--eviction-soft)`);
  }
  return out;
}
