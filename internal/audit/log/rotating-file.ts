/**
 * The audit log file with kube's rotation (gopkg.in/natefinch/lumberjack.v2, which kube-apiserver
 * uses for --audit-log-path): lines are appended in order; before a line that would take the file
 * past maxSize megabytes (0: lumberjack's 100), the file is renamed to
 * `<name>-<UTC 2006-01-02T15-04-05.000><ext>` and a new one started. After each rotation, in the
 * background, backups beyond maxBackups or older than maxAge days (by the time in their name) are
 * removed and, with compress, the rest gzipped to `<backup>.gz`. A line longer than maxSize is
 * refused, as lumberjack refuses it.
 *
 * Writes are queued: lines that arrive while a write is under way leave together in the next one
 * (never across a rotation), so a busy server pays one write per batch of events, and each line's
 * promise settles once its bytes were written (or failed).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { goPathError } from './errno.js';

/** Where the log backend writes lines. */
export interface LogSink {
  /** Appends line (which ends with its newline); resolves once written, rejects when it could not be. */
  write(line: string): Promise<void>;
  /** Waits for queued lines and background work, then releases the file. */
  close(): Promise<void>;
}

/** lumberjack's settings, as the --audit-log-* flags give them. */
export interface RotationOptions {
  readonly filename: string;
  /** Megabytes; 0 means 100. */
  readonly maxSizeMB: number;
  /** Backups to keep; 0 keeps all (unless maxAgeDays removes them). */
  readonly maxBackups: number;
  /** Days to keep backups, by the time in their name; 0 keeps them regardless of age. */
  readonly maxAgeDays: number;
  readonly compress: boolean;
  /** Told when background cleanup or compression fails. */
  readonly onError?: (message: string) => void;
}

interface Pending {
  readonly bytes: Buffer;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

const megabyte = 1024 * 1024;
const compressSuffix = '.gz';
const backupStamp = /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}$/;

/** lumberjack's backup timestamp (format "2006-01-02T15-04-05.000", UTC). */
export function backupTimestamp(now: Date): string {
  return now.toISOString().slice(0, 23).replace(/:/g, '-');
}

function parseBackupTimestamp(stamp: string): number | undefined {
  if (!backupStamp.test(stamp)) return undefined;
  const t = Date.parse(`${stamp.slice(0, 13)}:${stamp.slice(14, 16)}:${stamp.slice(17)}Z`);
  return Number.isNaN(t) ? undefined : t;
}

/** A lumberjack-style rotating file. */
export class RotatingFile implements LogSink {
  private readonly max: number;
  private readonly dir: string;
  private readonly prefix: string;
  private readonly ext: string;
  private file: FileHandle | undefined;
  private size = 0;
  private queue: Pending[] = [];
  private draining: Promise<void> | undefined;
  private milling: Promise<void> | undefined;
  private millAgain = false;

  constructor(private readonly opts: RotationOptions) {
    this.max = (opts.maxSizeMB === 0 ? 100 : opts.maxSizeMB) * megabyte;
    this.dir = dirname(opts.filename);
    const name = basename(opts.filename);
    this.ext = extname(name);
    this.prefix = `${name.slice(0, name.length - this.ext.length)}-`;
  }

  write(line: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ bytes: Buffer.from(line), resolve, reject });
      this.draining ??= this.drainSoon();
    });
  }

  async close(): Promise<void> {
    while (this.draining) await this.draining;
    while (this.milling) await this.milling;
    const file = this.file;
    this.file = undefined;
    await file?.close();
  }

  /**
   * Drains until the queue is empty. The queue is checked and draining cleared in one step: a line
   * queued at any moment before is written by this run, any later one starts the next.
   */
  private async drainSoon(): Promise<void> {
    try {
      do await this.drain();
      while (this.queue.length > 0);
    } finally {
      this.draining = undefined;
    }
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      let i = 0;
      while (i < batch.length) {
        const first = batch[i] as Pending;
        if (first.bytes.length > this.max) {
          first.reject(new Error(`write length ${first.bytes.length} exceeds maximum file size ${this.max}`));
          i++;
          continue;
        }
        try {
          if (!this.file) await this.openExistingOrNew(first.bytes.length);
          if (this.size + first.bytes.length > this.max) await this.rotate();
        } catch (err) {
          first.reject(err as Error);
          i++;
          continue;
        }
        // The lines that still fit in this file leave in one write.
        let end = i + 1;
        let total = first.bytes.length;
        while (end < batch.length) {
          const len = (batch[end] as Pending).bytes.length;
          if (this.size + total + len > this.max) break;
          total += len;
          end++;
        }
        const chunk = end === i + 1 ? first.bytes : Buffer.concat(batch.slice(i, end).map((p) => p.bytes), total);
        try {
          await this.writeAll(chunk);
          for (let k = i; k < end; k++) (batch[k] as Pending).resolve();
        } catch (err) {
          const failure = new Error(goPathError('write', this.opts.filename, err));
          for (let k = i; k < end; k++) (batch[k] as Pending).reject(failure);
        }
        i = end;
      }
    }
  }

  private async writeAll(chunk: Buffer): Promise<void> {
    const file = this.file as FileHandle;
    let offset = 0;
    while (offset < chunk.length) {
      const { bytesWritten } = await file.write(chunk, offset, chunk.length - offset);
      offset += bytesWritten;
      this.size += bytesWritten;
    }
  }

  /** lumberjack's openExistingOrNew: append to the file unless this write would take it to its size. */
  private async openExistingOrNew(writeLen: number): Promise<void> {
    this.scheduleMill();
    let size: number;
    try {
      size = (await stat(this.opts.filename)).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return this.openNew();
      throw new Error(`error getting log file info: ${goPathError('stat', this.opts.filename, err)}`);
    }
    if (size + writeLen >= this.max) return this.rotate();
    try {
      this.file = await open(this.opts.filename, 'a');
      this.size = size;
    } catch {
      // lumberjack starts a new file when the old one cannot be opened.
      await this.openNew();
    }
  }

  private async rotate(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.close();
    await this.openNew();
    this.scheduleMill();
  }

  /** Moves the current file to its backup name (keeping its mode) and starts an empty one. */
  private async openNew(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o755 });
    let mode = 0o600;
    try {
      const info = await stat(this.opts.filename);
      mode = info.mode & 0o777;
      const backup = join(this.dir, `${this.prefix}${backupTimestamp(new Date())}${this.ext}`);
      try {
        await rename(this.opts.filename, backup);
      } catch (err) {
        throw new Error(`can't rename log file: ${goPathError('rename', this.opts.filename, err)}`);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    try {
      this.file = await open(this.opts.filename, 'w', mode);
    } catch (err) {
      throw new Error(`can't open new logfile: ${goPathError('open', this.opts.filename, err)}`);
    }
    this.size = 0;
  }

  private scheduleMill(): void {
    if (this.opts.maxBackups === 0 && this.opts.maxAgeDays === 0 && !this.opts.compress) return;
    if (this.milling) {
      this.millAgain = true;
      return;
    }
    this.milling = (async () => {
      do {
        this.millAgain = false;
        try {
          await this.millOnce();
        } catch (err) {
          this.opts.onError?.((err as Error).message);
        }
      } while (this.millAgain);
    })().finally(() => (this.milling = undefined));
  }

  /** The backups in the log's directory, newest first, with the time in their names. */
  private async oldLogFiles(): Promise<Array<{ name: string; time: number }>> {
    const out: Array<{ name: string; time: number }> = [];
    for (const entry of await readdir(this.dir, { withFileTypes: true })) {
      if (entry.isDirectory() || !entry.name.startsWith(this.prefix)) continue;
      for (const ext of [this.ext, this.ext + compressSuffix]) {
        if (!entry.name.endsWith(ext)) continue;
        const time = parseBackupTimestamp(entry.name.slice(this.prefix.length, entry.name.length - ext.length));
        if (time !== undefined) {
          out.push({ name: entry.name, time });
          break;
        }
      }
    }
    return out.sort((a, b) => b.time - a.time);
  }

  /** lumberjack's millRunOnce: removes backups past maxBackups or maxAge, then compresses the rest. */
  private async millOnce(): Promise<void> {
    let files = await this.oldLogFiles();
    const remove: string[] = [];
    if (this.opts.maxBackups > 0 && this.opts.maxBackups < files.length) {
      // A backup and its compressed form count once.
      const preserved = new Set<string>();
      const remaining: typeof files = [];
      for (const f of files) {
        preserved.add(f.name.endsWith(compressSuffix) ? f.name.slice(0, -compressSuffix.length) : f.name);
        if (preserved.size > this.opts.maxBackups) remove.push(f.name);
        else remaining.push(f);
      }
      files = remaining;
    }
    if (this.opts.maxAgeDays > 0) {
      const cutoff = Date.now() - this.opts.maxAgeDays * 24 * 3600 * 1000;
      const remaining: typeof files = [];
      for (const f of files) {
        if (f.time < cutoff) remove.push(f.name);
        else remaining.push(f);
      }
      files = remaining;
    }
    let firstError: Error | undefined;
    for (const name of remove) {
      try {
        await unlink(join(this.dir, name));
      } catch (err) {
        firstError ??= new Error(goPathError('remove', join(this.dir, name), err));
      }
    }
    if (this.opts.compress) {
      for (const f of files) {
        if (f.name.endsWith(compressSuffix)) continue;
        try {
          await compressLogFile(join(this.dir, f.name), join(this.dir, f.name + compressSuffix));
        } catch (err) {
          firstError ??= err as Error;
        }
      }
    }
    if (firstError) throw firstError;
  }
}

/** Gzips src into dst (with src's mode) and removes src; a failed dst is removed. */
async function compressLogFile(src: string, dst: string): Promise<void> {
  let mode: number;
  try {
    mode = (await stat(src)).mode & 0o777;
  } catch (err) {
    throw new Error(`failed to stat log file: ${goPathError('stat', src, err)}`);
  }
  try {
    await pipeline(createReadStream(src), createGzip(), createWriteStream(dst, { mode }));
  } catch (err) {
    await unlink(dst).catch(() => undefined);
    throw new Error(`failed to compress log file: ${goPathError('open', src, err)}`);
  }
  await unlink(src);
}
