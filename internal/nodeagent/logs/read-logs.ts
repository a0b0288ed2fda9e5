/**
 * Reads a container's CRI log file as kubelet's ReadLogs does: whole lines (partial records joined),
 * the last tailLines of them, only those at or after since, each prefixed with its time when
 * timestamps is asked, cut at limitBytes; with follow it keeps reading what the runtime appends,
 * across rotations (the path renamed away and reopened), until the container stops and the file
 * is drained, the limit is reached or the reader goes away.
 */
import { watch, type FSWatcher } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { fixedNanoTime, LineJoiner, parseCriRecord, type CriLogLine } from './cri-log.js';

/** What to read (kubelet's PodLogOptions as the log reader sees them). */
export interface ContainerLogOptions {
  readonly follow: boolean;
  readonly tailLines?: number;
  readonly limitBytes?: number;
  /** Lines before this time (ms since the epoch) are left out. */
  readonly sinceMs?: number;
  readonly timestamps: boolean;
}

/** Where lines go; write may return a promise (back-pressure) that must settle before the next. */
export interface LogSink {
  write(chunk: Buffer): void | Promise<void>;
}

/** What following needs to know about the container. */
export interface FollowHooks {
  /** Whether the container still runs (more may be written). */
  isRunning(): Promise<boolean>;
  /** Ends following early (the client went away). */
  readonly signal?: AbortSignal;
  /** How often to look for new data when the file system sends no change event (ms). */
  readonly pollMs?: number;
}

const chunkSize = 64 * 1024;

class FileLines {
  private carry = Buffer.alloc(0);
  position = 0;
  constructor(readonly handle: FileHandle) {}

  /** Reads to the current end: the complete file lines read (without '\n'). */
  async readAvailable(): Promise<Buffer[]> {
    const lines: Buffer[] = [];
    const buf = Buffer.allocUnsafe(chunkSize);
    for (;;) {
      const { bytesRead } = await this.handle.read(buf, 0, chunkSize, this.position);
      if (bytesRead === 0) break;
      this.position += bytesRead;
      let data = Buffer.concat([this.carry, buf.subarray(0, bytesRead)]);
      let nl: number;
      while ((nl = data.indexOf(0x0a)) >= 0) {
        lines.push(data.subarray(0, nl));
        data = data.subarray(nl + 1);
      }
      this.carry = Buffer.from(data);
    }
    return lines;
  }
}

/** Reads the log at path into sink; resolves when done (for follow: see the file comment). */
export async function readContainerLog(path: string, opts: ContainerLogOptions, sink: LogSink, hooks?: FollowHooks): Promise<void> {
  let handle = await open(path, 'r');
  let remaining = opts.limitBytes ?? Infinity;
  const joiner = new LineJoiner();
  const emit = async (line: CriLogLine): Promise<boolean> => {
    if (opts.sinceMs !== undefined && line.timeMs < opts.sinceMs) return true;
    let out = opts.timestamps ? Buffer.concat([Buffer.from(`${fixedNanoTime(line.time)} `), line.text]) : line.text;
    if (out.length > remaining) out = out.subarray(0, remaining);
    remaining -= out.length;
    if (out.length > 0) await sink.write(out);
    return remaining > 0;
  };
  const linesOf = (records: Buffer[]): CriLogLine[] => {
    const out: CriLogLine[] = [];
    for (const raw of records) {
      const rec = parseCriRecord(raw);
      if (!rec) continue;
      const line = joiner.push(rec);
      if (line) out.push(line);
    }
    return out;
  };
  try {
    let reader = new FileLines(handle);
    let first = linesOf(await reader.readAvailable());
    if (opts.tailLines !== undefined) first = opts.tailLines === 0 ? [] : first.slice(-opts.tailLines);
    for (const line of first) if (!(await emit(line))) return;
    if (!opts.follow || !hooks) {
      for (const line of joiner.flush()) if (!(await emit(line))) return;
      return;
    }
    const signal = hooks.signal;
    for (;;) {
      if (signal?.aborted) return;
      const running = await hooks.isRunning();
      for (const line of linesOf(await reader.readAvailable())) if (!(await emit(line))) return;
      // Rotated: the path is another file now; what the old one still had was read above.
      const rotated = await stat(path).then(
        async (s) => s.ino !== (await handle.stat()).ino || s.size < reader.position,
        () => false,
      );
      if (rotated) {
        await handle.close();
        handle = await open(path, 'r');
        reader = new FileLines(handle);
        continue;
      }
      if (!running) {
        for (const line of joiner.flush()) if (!(await emit(line))) return;
        return;
      }
      await waitForChange(path, hooks.pollMs ?? 1000, signal);
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Resolves on a change event of path, after pollMs, or when signal aborts. */
function waitForChange(path: string, pollMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let watcher: FSWatcher | undefined;
    const done = (): void => {
      clearTimeout(timer);
      watcher?.close();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, pollMs);
    try {
      watcher = watch(path, { persistent: false }, done);
      watcher.on('error', done);
    } catch {
      // The file is being rotated: the poll timer takes over.
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
