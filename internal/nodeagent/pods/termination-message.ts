/**
 * Terminated containers' messages as kubelet reads them: the file mounted at
 * terminationMessagePath (at most 4096 bytes), or with FallbackToLogsOnError and a failure, the
 * last 80 lines (at most 2048 bytes) of the container's log.
 */
import { open } from 'node:fs/promises';
import { terminationMessagePathAnnotation, terminationMessagePolicyAnnotation } from './labels.js';
import type { ContainerInstance } from './runtime-view.js';

const maxFileBytes = 4096;
const maxLogBytes = 2048;
const maxLogLines = 80;

async function readTail(path: string, max: number): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const start = Math.max(0, size - max);
    const buf = Buffer.alloc(size - start);
    await fh.read(buf, 0, buf.length, start);
    return buf.toString('utf8');
  } finally {
    await fh.close();
  }
}

async function readHead(path: string, max: number): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(max);
    const { bytesRead } = await fh.read(buf, 0, max, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

/** The message of an exited instance (hostFile: its termination-message file, when known). */
export async function terminationMessage(inst: ContainerInstance, hostFile: string | undefined): Promise<string> {
  const s = inst.status;
  const path = s.annotations?.[terminationMessagePathAnnotation];
  const file = hostFile ?? s.mounts?.find((m) => m.container_path === path)?.host_path;
  let message = '';
  if (file) message = await readHead(file, maxFileBytes).catch(() => '');
  if (message === '' && (s.exit_code ?? 0) !== 0 && s.annotations?.[terminationMessagePolicyAnnotation] === 'FallbackToLogsOnError' && s.log_path) {
    const text = await readTail(s.log_path, 64 * 1024).catch(() => '');
    // CRI log lines: "<time> <stream> <P|F> <text>".
    const lines = text.split('\n').filter((l) => l !== '').map((l) => l.split(' ').slice(3).join(' '));
    message = lines.slice(-maxLogLines).join('\n');
    if (message.length > maxLogBytes) message = message.slice(-maxLogBytes);
  }
  return message;
}
