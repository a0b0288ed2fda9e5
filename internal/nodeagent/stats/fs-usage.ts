/**
 * Disk usage of directories (volumes, container logs) as kubelet's du-based metrics measure it:
 * bytes of the blocks the files take and the count of inodes, walking the tree once per call.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Bytes and inodes used under path (0 and 0 when it does not exist). */
export async function directoryUsage(path: string): Promise<{ usedBytes: number; inodesUsed: number }> {
  let usedBytes = 0;
  let inodesUsed = 0;
  const seen = new Set<number>();
  async function walk(p: string): Promise<void> {
    const st = await lstat(p).catch(() => undefined);
    if (!st) return;
    // Hard links count once, as du counts them.
    if (seen.has(st.ino)) return;
    seen.add(st.ino);
    inodesUsed++;
    usedBytes += st.blocks * 512;
    if (st.isDirectory()) {
      const entries = await readdir(p).catch(() => [] as string[]);
      for (const e of entries) await walk(join(p, e));
    }
  }
  await walk(path);
  return { usedBytes, inodesUsed };
}
