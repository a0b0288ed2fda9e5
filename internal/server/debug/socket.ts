/**
 * --debug-socket-path (kube's UnprotectedDebugSocket): plain HTTP on a unix-domain socket serving
 * the debug endpoints without authentication or authorization (whoever may open the socket file
 * may use them), whether or not --profiling is on. A stale socket file is removed first and the
 * directory made, with kube's errors when either fails; every other path is a 404.
 */
import { mkdir, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import type { Logger } from '../../observability/logging.js';
import type { DebugEndpoints } from './endpoints.js';

/** A listening debug socket. */
export interface DebugSocket {
  /** Closes the socket (and its connections: a profile in progress ends); idempotent. */
  stop(): Promise<void>;
}

function notFound(res: ServerResponse): void {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end('404 page not found\n');
}

async function handle(endpoints: DebugEndpoints, req: IncomingMessage, res: ServerResponse, log: Logger): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  try {
    path = decodeURIComponent(path);
  } catch {
    // Served as sent.
  }
  try {
    if (!(await endpoints.serve(req, res, path, new URLSearchParams(q < 0 ? '' : url.slice(q + 1))))) notFound(res);
  } catch (err) {
    log.error(`debug socket: serving ${req.method} ${url}: ${(err as Error)?.stack ?? String(err)}`);
    if (!res.headersSent) {
      res.statusCode = 500;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    }
    res.end();
  }
}

/** Listens on path; throws kube's errors when the socket cannot be made. */
export async function startDebugSocket(path: string, endpoints: DebugEndpoints, log: Logger): Promise<DebugSocket> {
  try {
    await rm(path, { force: true });
  } catch (err) {
    throw new Error(`failed to remove (cleanup) stale debug socket: ${(err as Error).message}`);
  }
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o755 });
  } catch (err) {
    throw new Error(`failed to create directory for debug socket: ${(err as Error).message}`);
  }
  const server = createServer((req, res) => void handle(endpoints, req, res, log));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new Error(`failed to listen error: ${err.message}`)));
    server.listen(path, () => resolve());
  });
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
