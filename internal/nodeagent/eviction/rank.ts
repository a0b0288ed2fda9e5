/**
 * Which pod to evict first, as kubelet's rankers order them: for memory, pods whose usage exceeds
 * their requests first, then lower priority, then more usage above requests; for disk the same with
 * ephemeral-storage (rootfs, logs and local volumes); for PIDs lower priority, then more processes.
 */
import { parseQuantity } from '../../validation/quantity.js';

/** A pod with its stats (from the Summary) for ranking. */
export interface RankedPod {
  readonly pod: Record<string, any>;
  readonly stats: Record<string, any> | undefined;
}

function requestOf(pod: Record<string, any>, resource: string): number {
  let sum = 0;
  for (const c of pod.spec?.containers ?? []) {
    const q = c.resources?.requests?.[resource];
    if (q !== undefined) sum += Number(parseQuantity(String(q)).value());
  }
  return sum;
}

/** Memory working set of the pod's containers (bytes). */
export function memoryUsage(stats: Record<string, any> | undefined): number {
  return (stats?.containers ?? []).reduce((s: number, c: any) => s + (c.memory?.workingSetBytes ?? 0), 0);
}

/** Ephemeral storage the pod uses: its containers' rootfs and logs and its local volumes (bytes). */
export function diskUsage(stats: Record<string, any> | undefined): number {
  if (stats?.['ephemeral-storage']?.usedBytes !== undefined) return stats['ephemeral-storage'].usedBytes;
  const containers = (stats?.containers ?? []).reduce((s: number, c: any) => s + (c.rootfs?.usedBytes ?? 0) + (c.logs?.usedBytes ?? 0), 0);
  return containers + (stats?.volume ?? []).reduce((s: number, v: any) => s + (v.usedBytes ?? 0), 0);
}

function priority(pod: Record<string, any>): number {
  return pod.spec?.priority ?? 0;
}

type Cmp = (a: RankedPod, b: RankedPod) => number;

function orderedBy(...cmps: Cmp[]): Cmp {
  return (a, b) => {
    for (const c of cmps) {
      const r = c(a, b);
      if (r !== 0) return r;
    }
    return 0;
  };
}

function exceeds(usage: (s: Record<string, any> | undefined) => number, resource: string): Cmp {
  // Pods without stats rank as not exceeding, as kubelet's do.
  const over = (p: RankedPod) => (p.stats ? usage(p.stats) > requestOf(p.pod, resource) : false);
  return (a, b) => Number(over(b)) - Number(over(a));
}

const byPriority: Cmp = (a, b) => priority(a.pod) - priority(b.pod);

function aboveRequest(usage: (s: Record<string, any> | undefined) => number, resource: string): Cmp {
  return (a, b) => usage(b.stats) - requestOf(b.pod, resource) - (usage(a.stats) - requestOf(a.pod, resource));
}

const processCount = (s: Record<string, any> | undefined) => s?.process_stats?.process_count ?? 0;

/** The pods in eviction order for the resource being reclaimed. Never mutates pods. */
export function rankPods(pods: readonly RankedPod[], resource: string): RankedPod[] {
  const sorted = [...pods];
  if (resource === 'memory') sorted.sort(orderedBy(exceeds(memoryUsage, 'memory'), byPriority, aboveRequest(memoryUsage, 'memory')));
  else if (resource === 'pids') sorted.sort(orderedBy(byPriority, (a, b) => processCount(b.stats) - processCount(a.stats)));
  else sorted.sort(orderedBy(exceeds(diskUsage, 'ephemeral-storage'), byPriority, aboveRequest(diskUsage, 'ephemeral-storage')));
  return sorted;
}

/** The request of a container for resource as a quantity string ("0" when none). */
export function containerRequest(container: Record<string, any>, resource: string): string {
  return String(container.resources?.requests?.[resource] ?? '0');
}
