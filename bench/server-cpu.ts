/**
 * A server child's own CPU time per answered request over a load, from /proc: what a feature costs
 * the server itself, apart from the load generator that shares the cores.
 */
import { readFileSync } from 'node:fs';
import type { Throughput } from './cannon.js';
import type { ServerHandle } from './server-handle.js';

/** A load's throughput and the server's CPU per answered request while it ran (µs; NaN where /proc is missing). */
export interface Measured {
  readonly throughput: Throughput;
  readonly cpuMicrosPerRequest: number;
}

/** CPU time (user + system) a process has used, in ms, from /proc; NaN where there is none. */
export function processCpuMs(pid: number): number {
  try {
    // Fields after the command name: state is [0], utime [11], stime [12], in clock ticks (100/s on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Runs a load and measures the server's own CPU over it: what the server spends, whatever the load generator costs. */
export async function measure(server: ServerHandle, run: () => Promise<Throughput>): Promise<Measured> {
  const before = processCpuMs(server.pid);
  const throughput = await run();
  const cpuMs = processCpuMs(server.pid) - before;
  return { throughput, cpuMicrosPerRequest: throughput.ok > 0 ? (cpuMs * 1000) / throughput.ok : Number.NaN };
}


/**
 * Waits until a process uses less than belowCores of CPU over a whole windowMs (a fresh server has
 * loaded its watch caches and settled), or timeoutMs passed; resolves with the time waited in ms.
 */
export async function awaitQuiet(pid: number, belowCores = 0.1, windowMs = 1000, timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    const before = processCpuMs(pid);
    await new Promise((r) => setTimeout(r, windowMs));
    const used = processCpuMs(pid) - before;
    if (!(used >= belowCores * windowMs) || performance.now() - started > timeoutMs) return performance.now() - started;
  }
}
