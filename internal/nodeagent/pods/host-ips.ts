/**
 * The node's IPs as pods see them (status.hostIP(s), the status.hostIP fieldRef): --node-ip when
 * given, else the Node object's InternalIP then ExternalIP addresses (as node status registered
 * them), else the first non-loopback address of the machine. Read at most once a minute.
 */
import { networkInterfaces } from 'node:os';
import type { AgentContext } from '../interface.js';

function machineIPs(): string[] {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (!a.internal && a.family === 'IPv4') return [a.address];
  }
  return [];
}

/** A cached reader of the node's IPs. */
export function hostIPsReader(ctx: AgentContext): () => Promise<string[]> {
  let cached: string[] | undefined;
  let readAt = 0;
  return async () => {
    if (ctx.config.nodeIPs.length > 0) return [...ctx.config.nodeIPs];
    if (cached && Date.now() - readAt < 60_000) return cached;
    let ips: string[] = [];
    try {
      const node = (await ctx.client.get(`/api/v1/nodes/${ctx.nodeName}`)) as unknown as { status?: { addresses?: Array<{ type: string; address: string }> } };
      const addrs = node.status?.addresses ?? [];
      ips = [...addrs.filter((a) => a.type === 'InternalIP'), ...addrs.filter((a) => a.type === 'ExternalIP')].map((a) => a.address);
    } catch {
      // No Node yet (or not readable): the machine's own address.
    }
    if (ips.length === 0) ips = machineIPs();
    // One address per family, primary first, as kubelet reports hostIPs.
    const v4 = ips.find((ip) => !ip.includes(':'));
    const v6 = ips.find((ip) => ip.includes(':'));
    cached = [ips[0]!, ...[v4, v6].filter((ip): ip is string => !!ip && ip !== ips[0])].filter((ip) => ip !== undefined);
    readAt = Date.now();
    return cached;
  };
}
