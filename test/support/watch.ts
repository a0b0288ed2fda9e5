/**
 * Test support: opens a watch over HTTPS and hands out its JSON events one at a time.
 */
import { request as httpsRequest } from 'node:https';
import type { ServerFixture } from './server.js';

/** An open watch stream. */
export interface WatchStream {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  next(timeoutMs?: number): Promise<any | undefined>;
  ended(): boolean;
  close(): void;
}

/** Opens a watch and yields its events one JSON line at a time. */
export function openWatch(f: ServerFixture, path: string, headers: Record<string, string> = {}): Promise<WatchStream> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port: f.port, path, ca: f.ca, servername: 'localhost', headers }, (res) => {
      let buf = '';
      const events: any[] = [];
      const waiters: Array<(v: any) => void> = [];
      let done = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (!line.trim()) continue;
          const ev = JSON.parse(line);
          const w = waiters.shift();
          if (w) w(ev);
          else events.push(ev);
        }
      });
      res.on('end', () => {
        done = true;
        if (buf.trim() && res.statusCode !== 200) events.push(JSON.parse(buf));
        for (const w of waiters.splice(0)) w(undefined);
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        next: (timeoutMs = 5000) =>
          new Promise((r) => {
            if (events.length > 0) return r(events.shift());
            if (done) return r(undefined);
            const t = setTimeout(() => {
              const idx = waiters.indexOf(r);
              if (idx >= 0) waiters.splice(idx, 1);
              r(undefined);
            }, timeoutMs);
            waiters.push((v) => {
              clearTimeout(t);
              r(v);
            });
          }),
        ended: () => done,
        close: () => req.destroy(),
      });
    });
    req.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
    });
    req.end();
  });
}


/** Where streamWatch connects. */
export interface WatchTarget {
  readonly host?: string;
  readonly port: number;
  readonly ca: string;
  readonly path: string;
}

/** What streamWatch tells its caller. */
export interface WatchCallbacks {
  /** The response arrived (with its status). */
  onOpen?(status: number): void;
  /** One event (a parsed JSON line). */
  onEvent(event: any): void;
  /** The stream ended, failed, or could not be opened (told once). */
  onEnd?(err?: Error): void;
}

/**
 * Opens a watch and hands each JSON line to onEvent as it arrives, for tests that follow a stream
 * through faults (restarts, a killed etcd leader) rather than reading it one event at a time.
 */
export function streamWatch(target: WatchTarget, callbacks: WatchCallbacks): { close(): void } {
  let ended = false;
  const end = (err?: Error): void => {
    if (ended) return;
    ended = true;
    callbacks.onEnd?.(err);
  };
  const req = httpsRequest({ host: target.host ?? '127.0.0.1', port: target.port, path: target.path, ca: target.ca, servername: 'localhost' }, (res) => {
    callbacks.onOpen?.(res.statusCode ?? 0);
    let buf = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buf += chunk;
      let nl: number;
      while (!ended && (nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim()) callbacks.onEvent(JSON.parse(line));
      }
    });
    res.on('end', () => end());
    res.on('error', (err) => end(err));
  });
  req.on('error', (err) => end(err));
  req.end();
  return {
    close: () => {
      ended = true;
      req.destroy();
    },
  };
}
