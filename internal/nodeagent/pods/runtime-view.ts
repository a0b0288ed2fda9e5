/**
 * What the runtime has of one pod (kubelet's kubecontainer.PodStatus): its sandboxes (latest
 * first) and, per container name, its instances newest first with their CRI status, read by the
 * uid label kubelet puts on everything it creates.
 */
import type { ContainerStatus, PodSandbox, PodSandboxStatus } from '../../../proto/cri/v1/types.js';
import type { CriClient } from '../runtime/cri-client.js';
import { isGrpcCode } from '../runtime/cri-client.js';
import { containerNameLabel, podUidLabel, restartCountAnnotation } from './labels.js';

/** One container instance. */
export interface ContainerInstance {
  readonly id: string;
  readonly sandboxId: string;
  readonly status: ContainerStatus;
  /** The restart count kubelet wrote on it. */
  readonly restartCount: number;
}

/** The runtime's view of a pod. */
export interface RuntimeView {
  /** Sandboxes, newest first. */
  readonly sandboxes: readonly PodSandbox[];
  /** The newest sandbox's status (network), if any. */
  readonly sandboxStatus?: PodSandboxStatus;
  /** Container name -> instances, newest first. */
  readonly containers: ReadonlyMap<string, readonly ContainerInstance[]>;
}

/** ns since epoch (int64 as string or number) -> ms. */
export function nsToMs(v: string | number | undefined): number {
  if (v === undefined || v === '' || v === 0 || v === '0') return 0;
  return Number(BigInt(v) / 1_000_000n);
}

/** RFC 3339 (seconds) of ns since epoch, as the API writes times. */
export function nsToTime(v: string | number | undefined): string | undefined {
  const ms = nsToMs(v);
  return ms > 0 ? new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z') : undefined;
}

/** Reads the runtime's view of pod uid. */
export async function readRuntimeView(cri: CriClient, uid: string): Promise<RuntimeView> {
  const { items = [] } = await cri.runtime.ListPodSandbox({ filter: { label_selector: { [podUidLabel]: uid } } });
  const sandboxes = [...items].sort((a, b) => (b.metadata?.attempt ?? 0) - (a.metadata?.attempt ?? 0) || nsToMs(b.created_at) - nsToMs(a.created_at));
  let sandboxStatus: PodSandboxStatus | undefined;
  if (sandboxes[0]?.id) {
    sandboxStatus = (await cri.runtime.PodSandboxStatus({ pod_sandbox_id: sandboxes[0].id }).catch((err) => {
      if (isGrpcCode(err, 'NOT_FOUND')) return { status: undefined };
      throw err;
    })).status ?? undefined;
  }
  const { containers = [] } = await cri.runtime.ListContainers({ filter: { label_selector: { [podUidLabel]: uid } } });
  const byName = new Map<string, ContainerInstance[]>();
  for (const c of containers) {
    const name = c.labels?.[containerNameLabel] ?? c.metadata?.name ?? '';
    const res = await cri.runtime.ContainerStatus({ container_id: c.id ?? '' }).catch((err) => {
      if (isGrpcCode(err, 'NOT_FOUND')) return undefined;
      throw err;
    });
    if (!res?.status) continue;
    const list = byName.get(name) ?? [];
    list.push({ id: c.id ?? '', sandboxId: c.pod_sandbox_id ?? '', status: res.status, restartCount: Number(c.annotations?.[restartCountAnnotation] ?? c.metadata?.attempt ?? 0) });
    byName.set(name, list);
  }
  for (const list of byName.values()) list.sort((a, b) => b.restartCount - a.restartCount || nsToMs(b.status.created_at) - nsToMs(a.status.created_at));
  return { sandboxes, ...(sandboxStatus ? { sandboxStatus } : {}), containers: byName };
}

/** The pod IPs of a sandbox status (primary first). */
export function sandboxIPs(status: PodSandboxStatus | undefined): string[] {
  const ips: string[] = [];
  if (status?.network?.ip) ips.push(status.network.ip);
  for (const a of status?.network?.additional_ips ?? []) if (a.ip) ips.push(a.ip);
  return ips;
}
