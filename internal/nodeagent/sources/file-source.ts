/**
 * The file source (kubelet's --pod-manifest-path / staticPodPath): a directory of manifests (or a
 * single manifest file), each holding one pod, read every --file-check-frequency and when the
 * directory changes (fs.watch). As kubelet, names starting with "." are ignored, subdirectories
 * are not descended into, and a manifest that cannot be decoded or validated is logged and
 * skipped. A path that does not exist yields an empty set.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { KubeObject } from '../../../api/meta/types.js';
import type { AgentContext } from '../interface.js';
import type { PodSetListener, PodSource } from './interface.js';
import { decodeManifest } from './static-pod.js';

/** Reads the pods at path now (a directory of manifests or one manifest file). */
export async function readManifestPath(path: string, nodeName: string, log: AgentContext['log']): Promise<KubeObject[]> {
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const files = info.isDirectory() ? (await readdir(path)).filter((n) => !n.startsWith('.')).sort().map((n) => join(path, n)) : [path];
  const pods: KubeObject[] = [];
  for (const file of files) {
    try {
      const fileInfo = await stat(file);
      if (fileInfo.isDirectory()) {
        log.error('Provided manifest path is a directory, not recursing into manifest path', { path: file });
        continue;
      }
      if (!fileInfo.isFile()) {
        log.error('Manifest path is not a directory or file', { path: file });
        continue;
      }
      const data = await readFile(file, 'utf8');
      pods.push(...decodeManifest(data, { kind: 'file', location: file, nodeName }, false));
    } catch (err) {
      // The file went away between the listing and the read: it is simply gone.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      log.error('Could not process manifest file', { path: file, err: (err as Error).message });
    }
  }
  return pods;
}

/** Starts the file source for path (ctx.config.staticPodPath). */
export function startFileSource(ctx: AgentContext, path: string, listener: PodSetListener): PodSource {
  let stopped = false;
  let watcher: FSWatcher | undefined;
  let scanning = false;
  let again = false;
  let debounce: NodeJS.Timeout | undefined;
  const source = { name: 'file' as const, synced: false, stop };

  const ensureWatch = (): void => {
    if (watcher || stopped) return;
    try {
      watcher = watch(path, (_event, name) => {
        if (name && basename(String(name)).startsWith('.')) return;
        clearTimeout(debounce);
        debounce = setTimeout(() => void scan(), 50);
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      // The path does not exist yet: the periodic scan watches it once it does.
    }
  };

  async function scan(): Promise<void> {
    if (stopped) return;
    if (scanning) {
      again = true;
      return;
    }
    scanning = true;
    try {
      do {
        again = false;
        const pods = await readManifestPath(path, ctx.nodeName, ctx.log);
        if (stopped) return;
        source.synced = true;
        listener('file', pods);
      } while (again);
    } catch (err) {
      ctx.log.error('Unable to read config path', { path, err: (err as Error).message });
    } finally {
      scanning = false;
    }
    ensureWatch();
  }

  const timer = setInterval(() => void scan(), Math.max(100, ctx.config.fileCheckFrequencyMs));
  timer.unref();
  void scan();

  function stop(): void {
    stopped = true;
    clearInterval(timer);
    clearTimeout(debounce);
    watcher?.close();
  }
  return source;
}
