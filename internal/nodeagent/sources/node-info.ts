/**
 * The Node object admission and mirror pods read (kubelet's getNodeAnyWay): the node from the API
 * server, or, while it is not registered (or unreachable), the node as kubelet would first
 * register it: allocatable from the machine (cpu count, memory) and --max-pods, with the
 * hostname/os/arch labels.
 */
import os from 'node:os';
import type { KubeObject } from '../../../api/meta/types.js';
import type { AgentContext } from '../interface.js';

/** The node as registered, or the initial node this machine would register. */
export async function getNodeAnyWay(ctx: AgentContext): Promise<KubeObject> {
  try {
    const node = await ctx.client.get(`/api/v1/nodes/${encodeURIComponent(ctx.nodeName)}`, { signal: ctx.signal });
    if ((node.status as { allocatable?: unknown } | undefined)?.allocatable) return node;
    return { ...node, status: { ...(node.status ?? {}), allocatable: initialAllocatable(ctx) } };
  } catch {
    return initialNode(ctx);
  }
}

function initialAllocatable(ctx: AgentContext): Record<string, string> {
  const pods = ctx.config.podsPerCore > 0 ? Math.min(ctx.config.maxPods, ctx.config.podsPerCore * os.cpus().length) : ctx.config.maxPods;
  return { cpu: String(os.cpus().length), memory: String(os.totalmem()), pods: String(pods) };
}

/** kubelet's initialNode, as far as admission needs it. */
export function initialNode(ctx: AgentContext): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: ctx.nodeName,
      labels: { 'kubernetes.io/hostname': ctx.nodeName, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': process.arch === 'x64' ? 'amd64' : process.arch, ...ctx.config.nodeLabels },
    },
    spec: { taints: ctx.config.registerWithTaints.map((t) => ({ ...t })) },
    status: { allocatable: initialAllocatable(ctx) },
  };
}
