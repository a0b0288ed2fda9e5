/**
 * The soak's HTTP client: sends a request to one of the API servers that is up (round robin, or
 * a preferred one while it is up), with the admin's bearer token and keep-alive connections, and
 * records its kind, verb, status and latency. A request that gets no answer is recorded with
 * status 0 and answered as such; the client never throws.
 */
import { Agent, request } from 'node:https';
import type { ApiServer } from './control-plane.js';
import type { Recorder } from './recorder.js';

/** An answer (status 0 when none came). */
export interface SoakResponse {
  readonly status: number;
  readonly body: string;
  /** The server that answered. */
  readonly server: string;
  json(): any;
}

/** Options of one request. */
export interface SoakRequest {
  readonly body?: unknown;
  readonly contentType?: string;
  readonly accept?: string;
  /** Sent here while it is up, elsewhere otherwise. */
  readonly prefer?: number;
  readonly timeoutMs?: number;
}

/** Round-robin requests over the servers that are up. */
export class SoakClient {
  private next = 0;
  private readonly agents: Agent[];

  constructor(
    private readonly servers: readonly ApiServer[],
    readonly token: string,
    private readonly recorder: Recorder,
  ) {
    this.agents = servers.map(() => new Agent({ keepAlive: true, maxSockets: 32 }));
  }

  /** The index of the server a request goes to: prefer when up, else the next one up; -1 when none is. */
  pick(prefer?: number): number {
    if (prefer !== undefined && this.servers[prefer]?.up) return prefer;
    for (let i = 0; i < this.servers.length; i++) {
      const k = (this.next + i) % this.servers.length;
      if (this.servers[k]?.up) {
        this.next = k + 1;
        return k;
      }
    }
    return -1;
  }

  /** Sends a request and records it under kind. */
  async send(kind: string, method: string, path: string, opts: SoakRequest = {}): Promise<SoakResponse> {
    const began = Date.now();
    const res = await this.raw(method, path, opts);
    this.recorder.request(kind, method, res.status, began);
    return res;
  }

  /** Sends a request without recording it (the sampler's /metrics reads). */
  async raw(method: string, path: string, opts: SoakRequest = {}): Promise<SoakResponse> {
    const i = this.pick(opts.prefer);
    const server = this.servers[i];
    if (!server) return answer(0, 'no API server is up', '');
    const payload = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    const headers: Record<string, string | number> = { authorization: `Bearer ${this.token}`, accept: opts.accept ?? 'application/json' };
    if (payload !== undefined) {
      headers['content-type'] = opts.contentType ?? 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    return await new Promise((resolve) => {
      const req = request(
        { host: '127.0.0.1', port: server.port, path, method, ca: server.ca, servername: 'localhost', agent: this.agents[i], headers, timeout: opts.timeoutMs ?? 30_000 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(answer(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), server.name)));
          res.on('error', (err) => resolve(answer(0, err.message, server.name)));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (err) => resolve(answer(0, err.message, server.name)));
      req.end(payload);
    });
  }

  /**
   * Opens a watch stream (a GET of path) on a server that is up, calling onLine for each line of
   * its body and onEnd once when it ends or fails (with the status, 0 when none came, and the body
   * of a non-200 answer). Returns the server's name and a close function; onEnd is not called after close.
   */
  stream(path: string, prefer: number | undefined, onLine: (line: string) => void, onEnd: (status: number, body: string) => void): { close(): void; server: string } {
    const i = this.pick(prefer);
    const server = this.servers[i];
    let closed = false;
    const end = (status: number, body: string): void => {
      if (closed) return;
      closed = true;
      onEnd(status, body);
    };
    if (!server) {
      setImmediate(() => end(0, 'no API server is up'));
      return { close: () => (closed = true), server: 'none' };
    }
    const req = request({ host: '127.0.0.1', port: server.port, path, ca: server.ca, servername: 'localhost', headers: { authorization: `Bearer ${this.token}`, accept: 'application/json' } }, (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        if (res.statusCode !== 200) return;
        let nl: number;
        while (!closed && (nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.trim()) onLine(line);
        }
      });
      res.on('end', () => end(res.statusCode ?? 0, res.statusCode === 200 ? '' : buf));
      res.on('error', () => end(0, 'response error'));
    });
    req.on('error', (err) => end(0, err.message));
    req.end();
    return {
      server: server.name,
      close: () => {
        closed = true;
        req.destroy();
      },
    };
  }

  /** Closes the idle keep-alive connections. */
  close(): void {
    for (const a of this.agents) a.destroy();
  }
}

function answer(status: number, body: string, server: string): SoakResponse {
  return { status, body, server, json: () => JSON.parse(body) };
}
