/**
 * /debug/pprof/ for a Node.js server, in the place of Go's net/http/pprof that kube-apiserver
 * serves: an index page; `profile?seconds=N` (default 30, at most 300), a V8 CPU profile taken
 * through the inspector's Profiler and returned as a .cpuprofile (Chrome DevTools, speedscope);
 * `heap`, a V8 heap snapshot (.heapsnapshot) whose chunks are written to a temporary file as V8
 * produces them and then streamed, so the snapshot is never one string in memory. Go's other
 * profiles (goroutine, threadcreate, block, mutex, allocs, trace, symbol) have no Node.js
 * counterpart and answer 404 saying so. One profile runs at a time in the process: a second
 * request, on either port, answers 409 Conflict.
 */
import { closeSync, createReadStream, openSync, statSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The longest CPU profile one request may ask for, in seconds. */
export const maxProfileSeconds = 300;
const defaultProfileSeconds = 30;

/** Go's pprof profiles that this server cannot produce, with the reason given in the 404. */
const unavailable: Record<string, string> = {
  goroutine: 'a Node.js server runs JavaScript on one thread and has no goroutines to list',
  threadcreate: 'a Node.js server has no goroutine threads to trace',
  block: 'a Node.js server has no goroutines blocking on locks or channels',
  mutex: 'a Node.js server has no mutexes',
  allocs: 'V8 keeps no cumulative allocation profile; use /debug/pprof/heap',
  trace: 'Go execution traces have no Node.js equivalent; use /debug/pprof/profile',
  symbol: 'a .cpuprofile names its functions itself; there is nothing to look up',
};

/** What is running now in this process ('' when nothing). */
let running: '' | 'cpu' | 'heap' = '';

/** The profile in progress in this process, if any. */
export function activeProfile(): '' | 'cpu' | 'heap' {
  return running;
}

/** Go's pprof serveError: a plain-text error without the attachment headers. */
export function pprofError(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.removeHeader('Content-Disposition');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Go-Pprof', '1');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(`${text}\n`);
}

function post<T = unknown>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => {
    session.post(method, params ?? {}, (err: Error | null, result?: object) => (err ? reject(err) : resolve(result as T)));
  });
}

/** Resolves after ms, or earlier when the response closes or stop aborts. */
function sleep(ms: number, res: ServerResponse, stop: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      res.off('close', done);
      stop?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.once('close', done);
    stop?.addEventListener('abort', done, { once: true });
  });
}

/** /debug/pprof/profile: a CPU profile of `seconds` seconds (stopped early if the client leaves). */
export async function serveCpuProfile(res: ServerResponse, query: URLSearchParams, stop?: AbortSignal): Promise<void> {
  const asked = query.get('seconds') ?? '';
  let seconds = /^[+-]?[0-9]+$/.test(asked) ? Number(asked) : 0;
  if (seconds <= 0) seconds = defaultProfileSeconds;
  if (seconds > maxProfileSeconds) return pprofError(res, 400, `profile duration ${seconds}s exceeds the maximum of ${maxProfileSeconds}s`);
  if (running !== '') return pprofError(res, 409, 'Could not enable CPU profiling: cpu profiling already in use');
  running = 'cpu';
  const session = new Session();
  let profile: unknown;
  try {
    session.connect();
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.start');
    await sleep(seconds * 1000, res, stop);
    profile = (await post<{ profile: unknown }>(session, 'Profiler.stop')).profile;
  } catch (err) {
    return pprofError(res, 500, `Could not enable CPU profiling: ${(err as Error).message}`);
  } finally {
    session.disconnect();
    running = '';
  }
  if (res.destroyed || res.writableEnded) return;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Disposition', 'attachment; filename="profile.cpuprofile"');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(JSON.stringify(profile));
}

/** /debug/pprof/heap: a V8 heap snapshot, streamed from a temporary file. */
export async function serveHeapSnapshot(res: ServerResponse): Promise<void> {
  if (running !== '') return pprofError(res, 409, 'Could not take a heap snapshot: a profile is already in progress');
  running = 'heap';
  let dir: string | undefined;
  let file = '';
  try {
    dir = await mkdtemp(join(tmpdir(), 'capstan-heap-'));
    file = join(dir, 'heap.heapsnapshot');
    const fd = openSync(file, 'w', 0o600);
    const session = new Session();
    try {
      session.connect();
      // V8 emits the snapshot in chunks while takeHeapSnapshot runs (synchronously, on this thread).
      session.on('HeapProfiler.addHeapSnapshotChunk', (m: { params: { chunk: string } }) => {
        writeSync(fd, m.params.chunk);
      });
      await post(session, 'HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    } finally {
      session.disconnect();
      closeSync(fd);
    }
  } catch (err) {
    if (dir) await rm(dir, { recursive: true, force: true });
    return pprofError(res, 500, `Could not take a heap snapshot: ${(err as Error).message}`);
  } finally {
    running = '';
  }
  const cleanup = (): void => void rm(dir as string, { recursive: true, force: true });
  if (res.destroyed) return cleanup();
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Disposition', 'attachment; filename="heap.heapsnapshot"');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Length', String(statSync(file).size));
  const stream = createReadStream(file);
  stream.once('error', () => res.destroy());
  res.once('close', () => {
    stream.destroy();
    cleanup();
  });
  stream.pipe(res);
}

const indexPage = `<html>
<head>
<title>/debug/pprof/</title>
</head>
<body>
/debug/pprof/<br>
<br>
Profiles of this Node.js server:<br>
<table>
<tr><td><a href="profile?seconds=30">profile</a></td><td>A V8 CPU profile (.cpuprofile) taken for ?seconds=N (default ${defaultProfileSeconds}, at most ${maxProfileSeconds}); open it in Chrome DevTools or speedscope.</td></tr>
<tr><td><a href="heap">heap</a></td><td>A V8 heap snapshot (.heapsnapshot) of every live object; the server pauses while it is taken.</td></tr>
</table>
<br>
Not available (no Node.js counterpart): ${Object.keys(unavailable).join(', ')}.<br>
</body>
</html>
`;

/** Serves /debug/pprof/<name> (name "" is the index). */
export function servePprof(req: IncomingMessage, res: ServerResponse, name: string, query: URLSearchParams, stop?: AbortSignal): void | Promise<void> {
  if (name === '') {
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.end(req.method === 'HEAD' ? undefined : indexPage);
    return;
  }
  if (name === 'profile') return serveCpuProfile(res, query, stop);
  if (name === 'heap') return serveHeapSnapshot(res);
  const why = unavailable[name];
  pprofError(res, 404, why ? `Profile ${JSON.stringify(name)} is not available: ${why}` : 'Unknown profile');
}
