/**
 * Container log rotation (kubelet's container log manager): every 10 s each running container's
 * CRI log file larger than containerLogMaxSize is renamed to <log>.<YYYYMMDD-hhmmss> and the
 * runtime told to reopen it (ReopenContainerLog; the rename is undone when that fails). Rotated files
 * other than the newest are gzip-compressed (<name>.gz, written through a .tmp file), and the oldest
 * are removed so that at most containerLogMaxFiles files, the live one included, remain.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Logger } from '../../observability/logging.js';
import type { CriClient } from '../runtime/cri-client.js';
import type { Stoppable } from '../interface.js';

/** Settings of the rotation. */
export interface LogRotationSettings {
  readonly maxSize: number;
  readonly maxFiles: number;
  /** How often to look (kubelet: 10 s). */
  readonly periodMs?: number;
}

/** Go's "20060102-150405" in UTC, as kubelet names rotated logs. */
export function rotationStamp(d: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

/** The rotated files of log, oldest first (names sort by their stamp). */
async function rotatedLogs(log: string): Promise<string[]> {
  const dir = dirname(log);
  const prefix = `${basename(log)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((n) => n.startsWith(prefix) && !n.endsWith('.tmp'))
    .sort()
    .map((n) => join(dir, n));
}

async function compress(file: string): Promise<void> {
  const tmp = `${file}.gz.tmp`;
  await pipeline(createReadStream(file), createGzip(), createWriteStream(tmp));
  await rename(tmp, `${file}.gz`);
  await unlink(file);
}

/** Rotates one container's log when it is over the size; returns whether it did. */
export async function rotateIfNeeded(cri: CriClient, containerId: string, log: string, settings: LogRotationSettings, now = new Date()): Promise<boolean> {
  const info = await stat(log).catch(() => undefined);
  if (!info || info.size <= settings.maxSize) return false;
  // Leftover temporaries of an interrupted compression.
  const dir = dirname(log);
  for (const n of await readdir(dir).catch(() => [] as string[])) if (n.startsWith(`${basename(log)}.`) && n.endsWith('.tmp')) await unlink(join(dir, n)).catch(() => undefined);
  // Room for the file about to be rotated: at most maxFiles-2 older ones stay.
  const old = await rotatedLogs(log);
  const keep = Math.max(0, settings.maxFiles - 2);
  for (const f of old.slice(0, Math.max(0, old.length - keep))) await unlink(f).catch(() => undefined);
  for (const f of (await rotatedLogs(log)).filter((f) => !f.endsWith('.gz'))) await compress(f).catch(() => undefined);
  const target = `${log}.${rotationStamp(now)}`;
  await rename(log, target);
  try {
    await cri.runtime.ReopenContainerLog({ container_id: containerId });
  } catch (err) {
    await rename(target, log).catch(() => undefined);
    throw err;
  }
  return true;
}

/** Starts the periodic rotation of running containers' logs. */
export function startLogRotation(cri: CriClient, settings: LogRotationSettings, log: Logger): Stoppable {
  let running = false;
  const pass = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      const list = await cri.runtime.ListContainers({ filter: { state: { state: 'CONTAINER_RUNNING' } } });
      for (const c of list.containers ?? []) {
        if (!c.id) continue;
        try {
          const status = await cri.runtime.ContainerStatus({ container_id: c.id });
          const path = status.status?.log_path;
          if (path) await rotateIfNeeded(cri, c.id, path, settings);
        } catch (err) {
          log.warn(`Failed to rotate log for container ${c.id}: ${(err as Error).message}`);
        }
      }
    } catch (err) {
      log.warn(`Failed to list containers for log rotation: ${(err as Error).message}`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void pass(), settings.periodMs ?? 10_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
    },
  };
}
