/**
 * Noticing that certificate files may have changed, as kube's dynamic certificate content does:
 * a file system watch plus a periodic re-check (one minute in kube) for what the watch misses.
 * The watch is on each file's directory, not the file: editors and `kubectl create secret` mounts
 * replace files by rename or by swapping a `..data` symlink, which a watch on the old inode never
 * sees. Any event in such a directory asks for a check; the check itself decides whether the
 * contents changed, so spurious events cost one read of a few small files.
 */
import { watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';

/** How often and how eagerly to check. */
export interface FileWatchOptions {
  /** The periodic re-check (kube: one minute). */
  readonly intervalMs: number;
  /** Events within this window make one check (a cert and its key are usually written together). */
  readonly debounceMs?: number;
  /** Set false to rely on the periodic re-check alone (tests of that path). */
  readonly watch?: boolean;
}

/** A running watch; stop() ends it (idempotent). */
export interface FileWatch {
  stop(): void;
}

/**
 * Calls onChange after any file system event in the directories of paths (debounced) and every
 * intervalMs. onChange must not throw and must tolerate calls for unchanged files. Holds no
 * reference that keeps the process alive.
 */
export function watchFiles(paths: readonly string[], onChange: () => void, opts: FileWatchOptions): FileWatch {
  const dirs = [...new Set(paths.map((p) => dirname(p)))];
  const watchers = new Map<string, FSWatcher>();
  let pending: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = (): void => {
    if (stopped || pending) return;
    pending = setTimeout(() => {
      pending = undefined;
      if (!stopped) onChange();
    }, opts.debounceMs ?? 100);
    pending.unref();
  };
  const watchDir = (dir: string): void => {
    if (opts.watch === false || watchers.has(dir)) return;
    try {
      const w = watch(dir, { persistent: false }, schedule);
      // A directory removed or unreadable: drop the watch; the periodic check re-creates it.
      w.on('error', () => {
        w.close();
        watchers.delete(dir);
      });
      watchers.set(dir, w);
    } catch {
      // The directory does not exist (yet): the periodic check tries again.
    }
  };
  for (const d of dirs) watchDir(d);
  const timer = setInterval(() => {
    for (const d of dirs) watchDir(d);
    onChange();
  }, opts.intervalMs);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      if (pending) clearTimeout(pending);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
