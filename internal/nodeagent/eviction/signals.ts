/**
 * Eviction signals observed from a stats/v1alpha1 Summary, as kubelet's makeSignalObservations
 * reads them (memory.available, nodefs.available, nodefs.inodesFree, imagefs.available,
 * imagefs.inodesFree, pid.available), and which thresholds they cross.
 */
import type { EvictionThreshold } from '../interface.js';

/** One signal's available amount and its capacity (bytes, inodes or pids). */
export interface Observation {
  readonly available: number;
  readonly capacity: number;
}

/** Signals by name. */
export type Observations = ReadonlyMap<string, Observation>;

/** The resource a signal starves (kubelet's signalToResource): memory, ephemeral-storage, pids. */
export function resourceOf(signal: string): string {
  if (signal === 'memory.available' || signal === 'allocatableMemory.available') return 'memory';
  if (signal === 'pid.available') return 'pids';
  if (signal.endsWith('inodesFree')) return 'inodes';
  return 'ephemeral-storage';
}

/** The Summary's observations. */
export function observeSignals(summary: Record<string, any>): Map<string, Observation> {
  const out = new Map<string, Observation>();
  const node = summary.node ?? {};
  const mem = node.memory;
  if (mem?.availableBytes !== undefined && mem?.workingSetBytes !== undefined) out.set('memory.available', { available: mem.availableBytes, capacity: mem.availableBytes + mem.workingSetBytes });
  const fs = node.fs;
  if (fs?.availableBytes !== undefined && fs?.capacityBytes !== undefined) out.set('nodefs.available', { available: fs.availableBytes, capacity: fs.capacityBytes });
  if (fs?.inodesFree !== undefined && fs?.inodes !== undefined) out.set('nodefs.inodesFree', { available: fs.inodesFree, capacity: fs.inodes });
  const imageFs = node.runtime?.imageFs;
  if (imageFs?.availableBytes !== undefined && imageFs?.capacityBytes !== undefined) out.set('imagefs.available', { available: imageFs.availableBytes, capacity: imageFs.capacityBytes });
  if (imageFs?.inodesFree !== undefined && imageFs?.inodes !== undefined) out.set('imagefs.inodesFree', { available: imageFs.inodesFree, capacity: imageFs.inodes });
  const rlimit = node.rlimit;
  if (rlimit?.maxpid !== undefined && rlimit?.curproc !== undefined) out.set('pid.available', { available: rlimit.maxpid - rlimit.curproc, capacity: rlimit.maxpid });
  return out;
}

/** The amount below which a threshold is crossed, for a signal of this capacity. */
export function thresholdValue(t: EvictionThreshold, capacity: number): number {
  return t.quantity !== undefined ? t.quantity : Math.floor(capacity * (t.percentage ?? 0));
}

/** The thresholds whose signal's available amount is below their value (kubelet's thresholdsMet). */
export function thresholdsMet(thresholds: readonly EvictionThreshold[], observations: Observations): EvictionThreshold[] {
  return thresholds.filter((t) => {
    const o = observations.get(t.signal);
    return o !== undefined && o.available < thresholdValue(t, o.capacity);
  });
}

/** The node condition a signal's pressure sets (kubelet's signalToNodeCondition). */
export function conditionOf(signal: string): 'MemoryPressure' | 'DiskPressure' | 'PIDPressure' {
  if (signal.startsWith('memory') || signal.startsWith('allocatableMemory')) return 'MemoryPressure';
  if (signal === 'pid.available') return 'PIDPressure';
  return 'DiskPressure';
}
