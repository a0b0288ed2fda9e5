/**
 * Pod and container statistics of the Summary from the CRI runtime, as kubelet's CRI stats
 * provider gathers them: ListPodSandbox and ListContainers for what runs (ready sandboxes, running
 * containers), ListContainerStats for each container's CPU, memory and writable layer, and
 * ListPodSandboxStats for the pod's own CPU, memory, network and process count when the runtime
 * implements it (containerd 1.6 may not: the pod's figures are then its containers' sums). CPU
 * rates are derived between calls. Logs and volumes are measured on disk: the container's log
 * directory (from ContainerStatus's log_path) and rootDir/pods/<uid>/volumes/<plugin>/<name>.
 */
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ContainerStats as CriContainerStats, PodSandboxStats } from '../../../proto/cri/v1/types.js';
import type { CriClient } from '../runtime/cri-client.js';
import { isGrpcCode } from '../runtime/cri-client.js';
import type { FsInfo } from '../node/machine-info.js';
import type { CpuRateCache } from './cpu-rate.js';
import { directoryUsage } from './fs-usage.js';

/** kube's ephemeral volume plugins: their usage counts toward the pod's ephemeral-storage. */
const ephemeralVolumePlugins = new Set(['kubernetes.io~empty-dir', 'kubernetes.io~configmap', 'kubernetes.io~secret', 'kubernetes.io~downward-api', 'kubernetes.io~projected']);

const num = (v: { value?: string | number } | null | undefined): number | undefined => (v?.value === undefined ? undefined : Number(v.value));
const drop = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** An FsStats of used figures on a filesystem of fs's size. */
export function fsStats(time: string, fs: FsInfo, usedBytes: number | undefined, inodesUsed: number | undefined): Record<string, unknown> {
  return drop({ time, availableBytes: fs.availableBytes, capacityBytes: fs.capacityBytes, usedBytes, inodesFree: fs.inodesFree, inodes: fs.inodes, inodesUsed });
}

function nsToRfc3339(ns: string | number | undefined): string | undefined {
  if (ns === undefined || Number(ns) === 0) return undefined;
  return new Date(Number(BigInt(ns) / 1_000_000n)).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Where the summary's pod figures come from. */
export interface CriStatsDeps {
  readonly cri: CriClient;
  readonly rates: CpuRateCache;
  readonly rootDir: string;
  readonly rootFs: FsInfo;
  readonly imageFs: FsInfo;
}

const logPaths = new Map<string, string>();

async function logPathOf(cri: CriClient, id: string): Promise<string | undefined> {
  if (logPaths.has(id)) return logPaths.get(id);
  const res = await cri.runtime.ContainerStatus({ container_id: id }).catch(() => undefined);
  const path = res?.status?.log_path;
  if (path) logPaths.set(id, path);
  return path;
}

function cpuStats(time: string, key: string, rates: CpuRateCache, cpu: { usage_core_nano_seconds?: { value?: string | number } | null; usage_nano_cores?: { value?: string | number } | null } | null | undefined): Record<string, unknown> | undefined {
  const total = cpu?.usage_core_nano_seconds?.value;
  if (total === undefined) return undefined;
  const reported = num(cpu?.usage_nano_cores);
  const derived = rates.rate(key, BigInt(total));
  return drop({ time, usageNanoCores: reported || derived, usageCoreNanoSeconds: Number(total) });
}

function memoryStats(time: string, m: CriContainerStats['memory']): Record<string, unknown> | undefined {
  if (!m) return undefined;
  return drop({ time, availableBytes: num(m.available_bytes), usageBytes: num(m.usage_bytes), workingSetBytes: num(m.working_set_bytes), rssBytes: num(m.rss_bytes), pageFaults: num(m.page_faults), majorPageFaults: num(m.major_page_faults) });
}

function sum(list: readonly Record<string, any>[], field: string, key: string): number | undefined {
  const values = list.map((x) => x[field]?.[key]).filter((v) => typeof v === 'number') as number[];
  return values.length ? values.reduce((a, b) => a + b, 0) : undefined;
}

async function volumeStats(time: string, deps: CriStatsDeps, uid: string): Promise<{ volumes: Record<string, unknown>[]; ephemeralBytes: number; ephemeralInodes: number }> {
  const base = join(deps.rootDir, 'pods', uid, 'volumes');
  const volumes: Record<string, unknown>[] = [];
  let ephemeralBytes = 0;
  let ephemeralInodes = 0;
  for (const plugin of await readdir(base).catch(() => [] as string[])) {
    for (const name of await readdir(join(base, plugin)).catch(() => [] as string[])) {
      const u = await directoryUsage(join(base, plugin, name));
      volumes.push({ ...fsStats(time, deps.rootFs, u.usedBytes, u.inodesUsed), name });
      if (ephemeralVolumePlugins.has(plugin)) {
        ephemeralBytes += u.usedBytes;
        ephemeralInodes += u.inodesUsed;
      }
    }
  }
  return { volumes, ephemeralBytes, ephemeralInodes };
}

async function sandboxStats(cri: CriClient): Promise<Map<string, PodSandboxStats> | undefined> {
  try {
    const res = await cri.runtime.ListPodSandboxStats({});
    return new Map((res.stats ?? []).map((s) => [s.attributes?.id ?? '', s]));
  } catch (err) {
    // Not implemented, or (containerd 1.6) a sandbox without a cgroup parent fails the whole call:
    // the pods' figures are then their containers' sums.
    if (isGrpcCode(err, 'UNIMPLEMENTED') || isGrpcCode(err, 'UNKNOWN')) return undefined;
    throw err;
  }
}

/** The Summary's pods from the runtime. */
export async function podStatsFromCri(deps: CriStatsDeps, time: string): Promise<Record<string, unknown>[]> {
  const { cri, rates } = deps;
  const [sandboxes, containers, stats, podLevel] = await Promise.all([
    cri.runtime.ListPodSandbox({ filter: { state: { state: 'SANDBOX_READY' } } }),
    cri.runtime.ListContainers({ filter: { state: { state: 'CONTAINER_RUNNING' } } }),
    cri.runtime.ListContainerStats({}),
    sandboxStats(cri),
  ]);
  const statsById = new Map((stats.stats ?? []).map((s) => [s.attributes?.id ?? '', s]));
  const keep = new Set<string>();
  const pods: Record<string, unknown>[] = [];
  for (const sb of sandboxes.items ?? []) {
    const meta = sb.metadata ?? {};
    const uid = meta.uid ?? '';
    const containerStats: Record<string, any>[] = [];
    for (const c of (containers.containers ?? []).filter((x) => x.pod_sandbox_id === sb.id)) {
      const id = c.id ?? '';
      keep.add(id);
      const s = statsById.get(id);
      const logPath = await logPathOf(cri, id);
      const logs = logPath ? await directoryUsage(dirname(logPath)) : undefined;
      containerStats.push(
        drop({
          name: c.metadata?.name ?? '',
          startTime: nsToRfc3339(c.created_at),
          cpu: cpuStats(time, id, rates, s?.cpu),
          memory: memoryStats(time, s?.memory),
          rootfs: s?.writable_layer ? fsStats(time, deps.imageFs, num(s.writable_layer.used_bytes), num(s.writable_layer.inodes_used)) : undefined,
          logs: logs ? fsStats(time, deps.rootFs, logs.usedBytes, logs.inodesUsed) : undefined,
        }),
      );
    }
    const sbStats = podLevel?.get(sb.id ?? '')?.linux;
    keep.add(`pod:${sb.id}`);
    const podCpu = sbStats?.cpu ? cpuStats(time, `pod:${sb.id}`, rates, sbStats.cpu) : drop({ time, usageNanoCores: sum(containerStats, 'cpu', 'usageNanoCores'), usageCoreNanoSeconds: sum(containerStats, 'cpu', 'usageCoreNanoSeconds') });
    const podMemory = sbStats?.memory ? memoryStats(time, sbStats.memory) : drop({ time, usageBytes: sum(containerStats, 'memory', 'usageBytes'), workingSetBytes: sum(containerStats, 'memory', 'workingSetBytes'), rssBytes: sum(containerStats, 'memory', 'rssBytes') });
    const net = sbStats?.network;
    const iface = (i: NonNullable<typeof net>['default_interface']) => drop({ name: i?.name ?? '', rxBytes: num(i?.rx_bytes), rxErrors: num(i?.rx_errors), txBytes: num(i?.tx_bytes), txErrors: num(i?.tx_errors) });
    const { volumes, ephemeralBytes, ephemeralInodes } = await volumeStats(time, deps, uid);
    const containerDisk = containerStats.reduce((s, c) => s + (c.rootfs?.usedBytes ?? 0) + (c.logs?.usedBytes ?? 0), 0);
    const containerInodes = containerStats.reduce((s, c) => s + (c.rootfs?.inodesUsed ?? 0) + (c.logs?.inodesUsed ?? 0), 0);
    pods.push(
      drop({
        podRef: { name: meta.name ?? '', namespace: meta.namespace ?? '', uid },
        startTime: nsToRfc3339(sb.created_at),
        containers: containerStats,
        cpu: podCpu,
        memory: podMemory,
        network: net?.default_interface ? { time, ...iface(net.default_interface), interfaces: (net.interfaces ?? []).map(iface) } : undefined,
        volume: volumes.length ? volumes : undefined,
        'ephemeral-storage': fsStats(time, deps.rootFs, containerDisk + ephemeralBytes, containerInodes + ephemeralInodes),
        process_stats: sbStats?.process?.process_count ? { process_count: num(sbStats.process.process_count) } : undefined,
      }),
    );
  }
  for (const id of [...logPaths.keys()]) if (!keep.has(id)) logPaths.delete(id);
  rates.retain(new Set([...keep, 'node', 'kubelet']));
  return pods;
}
