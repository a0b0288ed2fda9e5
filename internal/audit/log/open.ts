/**
 * Opens --audit-log-path as kube's AuditLogOptions.getWriter does: "-" is standard output;
 * otherwise the file's directory is created (0700) and the file itself (0600, appended to) before
 * the server starts, so that a path the server cannot write refuses the start ("ensureLogFile:
 * open <path>: permission denied"), and the file is then written with rotation.
 */
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { goPathError } from './errno.js';
import { stdoutSink } from './backend.js';
import { RotatingFile, type LogSink, type RotationOptions } from './rotating-file.js';

/** The sink for --audit-log-path (with --audit-log-maxsize, -maxbackup, -maxage, -compress). */
export async function openLogSink(opts: RotationOptions): Promise<LogSink> {
  if (opts.filename === '-') return stdoutSink;
  try {
    await mkdir(dirname(opts.filename), { recursive: true, mode: 0o700 });
  } catch (err) {
    // Go's MkdirAll finds the path is there but not a directory: ENOTDIR, not EEXIST.
    const cause = (err as NodeJS.ErrnoException).code === 'EEXIST' ? { code: 'ENOTDIR' } : err;
    throw new Error(`ensureLogFile: ${goPathError('mkdir', dirname(opts.filename), cause)}`);
  }
  try {
    const f = await open(opts.filename, 'a+', 0o600);
    await f.close();
  } catch (err) {
    throw new Error(`ensureLogFile: ${goPathError('open', opts.filename, err)}`);
  }
  return new RotatingFile(opts);
}
