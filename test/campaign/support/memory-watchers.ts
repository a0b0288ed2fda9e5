/**
 * Watch clients for the memory campaign: slow watchers that stop reading their socket, watchers
 * that read every event and check its order, and many HTTP/2 watch streams that only count.
 */
import type { IncomingMessage } from 'node:http';
import { connect as h2connect, type ClientHttp2Session } from 'node:http2';
import { request } from 'node:https';

/** A watch whose client stopped reading right after the response head. */
export interface SlowWatch {
  /** Resolves with the status once the response head arrived. */
  readonly opened: Promise<number>;
  /**
   * Starts reading again and resolves with the events the stream held once it ends, or undefined
   * when it has not ended within timeoutMs (a watcher the server never closed).
   */
  drain(timeoutMs: number): Promise<number | undefined>;
  destroy(): void;
}

/** Opens a watch on its own HTTP/1.1 connection and never reads its body until drain(). */
export function openSlowWatch(port: number, ca: string, path: string): SlowWatch {
  let res: IncomingMessage | undefined;
  const req = request({ host: '127.0.0.1', port, path, ca, servername: 'localhost', agent: false });
  const opened = new Promise<number>((resolve, reject) => {
    req.once('response', (r) => {
      res = r;
      r.pause();
      resolve(r.statusCode ?? 0);
    });
    req.once('error', reject);
  });
  opened.catch(() => undefined);
  req.end();
  return {
    opened,
    drain: (timeoutMs) =>
      new Promise((resolve) => {
        if (!res) return resolve(undefined);
        let lines = 0;
        const timer = setTimeout(() => resolve(undefined), timeoutMs);
        res.on('data', (chunk: Buffer) => {
          for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
        });
        res.once('end', () => {
          clearTimeout(timer);
          resolve(lines);
        });
        res.once('error', () => {
          clearTimeout(timer);
          resolve(lines);
        });
        res.resume();
      }),
    destroy: () => req.destroy(),
  };
}

/** A watch that reads every event. */
export interface ReadingWatch {
  readonly opened: Promise<number>;
  /** MODIFIED events seen so far, in arrival order, by resourceVersion. */
  readonly modified: number[];
  /** Problems seen: resourceVersions out of order, repeats, ERROR events, an early end. */
  readonly problems: string[];
  destroy(): void;
}

/** Opens a watch on its own HTTP/1.1 connection and parses every JSON line. */
export function openReadingWatch(port: number, ca: string, path: string): ReadingWatch {
  const modified: number[] = [];
  const problems: string[] = [];
  let closing = false;
  let live = false;
  let last = 0;
  const req = request({ host: '127.0.0.1', port, path, ca, servername: 'localhost', agent: false });
  const opened = new Promise<number>((resolve, reject) => {
    req.once('response', (res) => {
      resolve(res.statusCode ?? 0);
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
          const ev = JSON.parse(buf.slice(0, nl)) as { type: string; object: { metadata?: { resourceVersion?: string } } };
          buf = buf.slice(nl + 1);
          const rv = Number(ev.object.metadata?.resourceVersion);
          // A watch without resourceVersion starts with the current state as ADDED events in key
          // order; everything after must come in resourceVersion order.
          if (ev.type === 'MODIFIED' || ev.type === 'DELETED') live = true;
          if (ev.type === 'ERROR') problems.push(`${path}: ERROR event ${JSON.stringify(ev.object).slice(0, 200)}`);
          else if (live && ev.type !== 'BOOKMARK' && rv <= last) problems.push(`${path}: ${ev.type} at resourceVersion ${rv} after ${last}`);
          if (ev.type === 'MODIFIED') modified.push(rv);
          if (ev.type !== 'BOOKMARK') last = Math.max(last, rv);
        }
      });
      res.once('end', () => {
        if (!closing) problems.push(`${path}: the server ended the stream of a watcher that kept up`);
      });
    });
    req.once('error', reject);
  });
  opened.catch(() => undefined);
  req.end();
  return {
    opened,
    modified,
    problems,
    destroy: () => {
      closing = true;
      req.destroy();
    },
  };
}

/** Many watch streams multiplexed over a few HTTP/2 connections, each counting its events. */
export interface WatchFleet {
  /** How many streams answered 200. */
  readonly open: () => number;
  /** Per stream: the events received and the resourceVersion of the last one. */
  readonly streams: { events: number; lastRv: number; ended: boolean }[];
  close(): void;
}

/**
 * Opens count watches of path, perSession streams on each HTTP/2 connection, a connection's worth
 * at a time; a watch refused with 429 (priority and fairness turning a burst away, as kube does) is
 * asked again after a pause, as client-go would. Resolves once all answered.
 */
export async function openWatchFleet(port: number, ca: string, path: string, count: number, perSession: number): Promise<WatchFleet> {
  const sessions: ClientHttp2Session[] = [];
  const streams: WatchFleet['streams'] = [];
  let ok = 0;
  const openOne = (session: ClientHttp2Session, state: WatchFleet['streams'][number]): Promise<number> =>
    new Promise((resolve) => {
      const stream = session.request({ ':path': path, accept: 'application/json' });
      let tail = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        // Count lines and keep only the last complete one's resourceVersion: cheap for thousands of streams.
        const text = tail + chunk;
        const lastNl = text.lastIndexOf('\n');
        if (lastNl < 0) {
          tail = text;
          return;
        }
        for (let j = text.indexOf('\n'); j >= 0 && j <= lastNl; j = text.indexOf('\n', j + 1)) state.events++;
        const prevNl = text.lastIndexOf('\n', lastNl - 1);
        const m = /"resourceVersion":"(\d+)"/.exec(text.slice(prevNl + 1, lastNl));
        if (m) state.lastRv = Number(m[1]);
        tail = text.slice(lastNl + 1);
      });
      stream.on('error', () => undefined);
      stream.once('response', (h) => {
        const status = Number(h[':status']);
        if (status !== 200) {
          state.events = 0;
          stream.close();
        } else stream.on('close', () => (state.ended = true));
        resolve(status);
      });
      stream.once('close', () => resolve(0));
    });
  for (let first = 0; first < count; first += perSession) {
    const session = h2connect(`https://127.0.0.1:${port}`, { ca, servername: 'localhost' });
    session.on('error', () => undefined);
    sessions.push(session);
    await Promise.all(
      Array.from({ length: Math.min(perSession, count - first) }, async () => {
        const state = { events: 0, lastRv: 0, ended: false };
        streams.push(state);
        for (let attempt = 0; attempt < 50; attempt++) {
          const status = await openOne(session, state);
          if (status === 200) {
            ok++;
            return;
          }
          if (status !== 429) return;
          await new Promise((r) => setTimeout(r, 200));
        }
      }),
    );
  }
  return {
    open: () => ok,
    streams,
    close: () => {
      for (const s of sessions) s.destroy();
    },
  };
}
