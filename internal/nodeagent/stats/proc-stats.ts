/**
 * The node's own figures for the Summary, from /proc as cadvisor's root container reports them:
 * CPU time (/proc/stat), memory (/proc/meminfo: usage = total - free, working set = usage -
 * inactive file pages, available = total - working set; faults from /proc/vmstat), network
 * counters (/proc/net/dev), process limits (/proc/sys/kernel/pid_max and the task count of
 * /proc/loadavg) and the boot time.
 */
import { readFile } from 'node:fs/promises';

const userHz = 100n;

async function read(path: string): Promise<string> {
  return readFile(path, 'utf8').catch(() => '');
}

/** Cumulative CPU time of the whole machine in ns (user, nice, system, irq, softirq, steal). */
export async function nodeCpuNanoSeconds(): Promise<bigint> {
  const line = (await read('/proc/stat')).split('\n').find((l) => l.startsWith('cpu ')) ?? '';
  const f = line.trim().split(/\s+/).slice(1).map((x) => BigInt(x || '0'));
  const busy = (f[0] ?? 0n) + (f[1] ?? 0n) + (f[2] ?? 0n) + (f[5] ?? 0n) + (f[6] ?? 0n) + (f[7] ?? 0n);
  return (busy * 1_000_000_000n) / userHz;
}

/** The boot time in ms (btime of /proc/stat). */
export async function bootTimeMs(): Promise<number> {
  const m = /^btime\s+(\d+)/m.exec(await read('/proc/stat'));
  return m ? Number(m[1]) * 1000 : Date.now();
}

/** The node's memory figures (bytes). */
export async function nodeMemory(): Promise<{ availableBytes: number; usageBytes: number; workingSetBytes: number; rssBytes: number; pageFaults: number; majorPageFaults: number }> {
  const [meminfo, vmstat] = await Promise.all([read('/proc/meminfo'), read('/proc/vmstat')]);
  const kb = (field: string) => Number(new RegExp(`^${field.replace(/[()]/g, '\\$&')}:\\s+(\\d+)`, 'm').exec(meminfo)?.[1] ?? 0) * 1024;
  const count = (field: string) => Number(new RegExp(`^${field}\\s+(\\d+)`, 'm').exec(vmstat)?.[1] ?? 0);
  const total = kb('MemTotal');
  const usage = total - kb('MemFree');
  const workingSet = Math.max(0, usage - kb('Inactive(file)'));
  return { availableBytes: Math.max(0, total - workingSet), usageBytes: usage, workingSetBytes: workingSet, rssBytes: kb('AnonPages'), pageFaults: count('pgfault'), majorPageFaults: count('pgmajfault') };
}

/** maxpid and curproc (kubelet's rlimit stats). */
export async function processLimits(): Promise<{ maxpid: number; curproc: number }> {
  const [pidMax, loadavg] = await Promise.all([read('/proc/sys/kernel/pid_max'), read('/proc/loadavg')]);
  const tasks = Number(/\d+\/(\d+)/.exec(loadavg)?.[1] ?? 0);
  return { maxpid: Number(pidMax.trim() || 0), curproc: tasks };
}

/** One interface's counters. */
export interface InterfaceStats {
  name: string;
  rxBytes: number;
  rxErrors: number;
  txBytes: number;
  txErrors: number;
}

/** Counters of the host's interfaces except loopback (/proc/net/dev). */
export async function networkInterfaces(path = '/proc/net/dev'): Promise<InterfaceStats[]> {
  const out: InterfaceStats[] = [];
  for (const line of (await read(path)).split('\n').slice(2)) {
    const m = /^\s*([^:]+):\s*(.*)$/.exec(line);
    if (!m || m[1] === 'lo') continue;
    const f = (m[2] ?? '').trim().split(/\s+/).map(Number);
    out.push({ name: m[1] as string, rxBytes: f[0] ?? 0, rxErrors: f[2] ?? 0, txBytes: f[8] ?? 0, txErrors: f[10] ?? 0 });
  }
  return out;
}
