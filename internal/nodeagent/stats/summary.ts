/**
 * kubelet's stats/v1alpha1 Summary (/stats/summary and the eviction manager's signals): the node's
 * CPU, memory, network, filesystems (nodefs: --root-dir's filesystem; imagefs: the runtime's
 * ImageFsInfo mountpoint), process limits and system containers (kubelet, pods), and each pod's
 * figures from the CRI runtime (cri-stats.ts). Rates (usageNanoCores) come from consecutive calls;
 * the first call samples twice, 100 ms apart, so every call has them.
 */
import type { AgentContext, PodSyncHandler, SummaryProvider } from '../interface.js';
import { filesystemInfo, type FsInfo } from '../node/machine-info.js';
import { sleep } from '../node/lease.js';
import { CpuRateCache } from './cpu-rate.js';
import { podStatsFromCri, fsStats } from './cri-stats.js';
import { bootTimeMs, networkInterfaces, nodeCpuNanoSeconds, nodeMemory, processLimits } from './proc-stats.js';

const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

async function imageFsOf(ctx: AgentContext): Promise<{ fs: FsInfo; usedBytes?: number; inodesUsed?: number }> {
  const res = await ctx.cri?.image.ImageFsInfo({}).catch(() => undefined);
  const usage = res?.image_filesystems?.[0];
  const mount = usage?.fs_id?.mountpoint;
  const fs = await filesystemInfo(mount || ctx.config.rootDir).catch(() => filesystemInfo(ctx.config.rootDir));
  const used = usage?.used_bytes?.value;
  const inodes = usage?.inodes_used?.value;
  return { fs, ...(used !== undefined ? { usedBytes: Number(used) } : {}), ...(inodes !== undefined ? { inodesUsed: Number(inodes) } : {}) };
}

/** The node's Summary provider (pods are read from the runtime; the pod handler is not consulted). */
export function createSummaryProvider(ctx: AgentContext, _pods: PodSyncHandler): SummaryProvider {
  const rates = new CpuRateCache();
  const started = Date.now();
  let primed = false;
  async function nodeCpu(time: string): Promise<Record<string, unknown>> {
    const total = await nodeCpuNanoSeconds();
    return { time, usageNanoCores: rates.rate('node', total) ?? 0, usageCoreNanoSeconds: Number(total) };
  }
  function kubeletCpu(time: string): Record<string, unknown> {
    const u = process.cpuUsage();
    const total = BigInt(u.user + u.system) * 1000n;
    return { time, usageNanoCores: rates.rate('kubelet', total) ?? 0, usageCoreNanoSeconds: Number(total) };
  }
  return {
    async summary() {
      if (!primed) {
        primed = true;
        rates.rate('node', await nodeCpuNanoSeconds());
        const u = process.cpuUsage();
        rates.rate('kubelet', BigInt(u.user + u.system) * 1000n);
        await sleep(100);
      }
      const now = Date.now();
      const time = rfc3339(now);
      const [rootFs, image, memory, rlimit, ifaces, boot] = await Promise.all([filesystemInfo(ctx.config.rootDir), imageFsOf(ctx), nodeMemory(), processLimits(), networkInterfaces(), bootTimeMs()]);
      const pods = ctx.cri ? await podStatsFromCri({ cri: ctx.cri, rates, rootDir: ctx.config.rootDir, rootFs, imageFs: image.fs }, time) : [];
      const cpu = await nodeCpu(time);
      const rss = process.memoryUsage().rss;
      const podsCpu = pods.reduce((s: number, p: any) => s + (p.cpu?.usageNanoCores ?? 0), 0);
      const podsCpuTotal = pods.reduce((s: number, p: any) => s + (p.cpu?.usageCoreNanoSeconds ?? 0), 0);
      const podsMem = pods.reduce((s: number, p: any) => s + (p.memory?.workingSetBytes ?? 0), 0);
      const podsUsage = pods.reduce((s: number, p: any) => s + (p.memory?.usageBytes ?? 0), 0);
      const first = ifaces[0];
      return {
        node: {
          nodeName: ctx.nodeName,
          systemContainers: [
            { name: 'kubelet', startTime: rfc3339(started), cpu: kubeletCpu(time), memory: { time, usageBytes: rss, workingSetBytes: rss, rssBytes: rss } },
            { name: 'pods', startTime: rfc3339(boot), cpu: { time, usageNanoCores: podsCpu, usageCoreNanoSeconds: podsCpuTotal }, memory: { time, availableBytes: Math.max(0, memory.availableBytes), usageBytes: podsUsage, workingSetBytes: podsMem } },
          ],
          startTime: rfc3339(boot),
          cpu,
          memory: { time, ...memory },
          network: first ? { time, ...first, interfaces: ifaces } : { time, interfaces: [] },
          fs: fsStats(time, rootFs, rootFs.usedBytes, rootFs.inodesUsed),
          runtime: { imageFs: fsStats(time, image.fs, image.usedBytes ?? image.fs.usedBytes, image.inodesUsed ?? image.fs.inodesUsed) },
          rlimit: { time, ...rlimit },
        },
        pods,
      };
    },
  };
}
