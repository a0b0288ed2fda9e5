/**
 * Campaign support (fuzz-requests): one raw HTTP/1.1 exchange over TLS, so a request can carry what
 * node's own client refuses to send (bad methods, control bytes in headers, broken framing), and
 * its answer is read byte for byte with a deadline: a hang is an answer too.
 */
import { connect, type TLSSocket } from 'node:tls';

/** Where and as whom to connect. */
export interface Endpoint {
  readonly port: number;
  readonly ca: string;
  readonly cert?: { readonly cert: string; readonly key: string };
}

/** What came back: the status line's code (0 when none), headers, body; `hung` when the deadline passed first. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly hung: boolean;
  /** The connection closed or failed before a full answer (text of the error when any). */
  readonly closedEarly?: string;
  /** The answer was a 2xx streamed body (a watch) that was still open when we stopped reading. */
  readonly streaming?: boolean;
}

/** How to send: the request head, then body parts with a pause between them, then how to finish. */
export interface RawRequest {
  readonly head: Buffer;
  readonly parts?: readonly Buffer[];
  readonly pauseMs?: number;
  /** After the parts: keep the socket open (default), half-close it (end), or destroy it. */
  readonly finish?: 'open' | 'end' | 'destroy';
  readonly deadlineMs?: number;
  /** A 2xx answer may stream (watch): resolve once its head arrived. */
  readonly mayStream?: boolean;
  /** A HEAD request: the answer has no body whatever its headers say. */
  readonly headOnly?: boolean;
}

/** Builds a request head from a method, path and header pairs (written verbatim). */
export function requestHead(method: string, path: string, headers: ReadonlyArray<readonly [string, string]>): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: localhost', ...headers.map(([k, v]) => `${k}: ${v}`)];
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), Buffer.from('\r\n\r\n')]);
}

function parse(buf: Buffer): { status: number; headers: Record<string, string>; bodyStart: number } | undefined {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  const headers: Record<string, string> = {};
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  return { status: m ? Number(m[1]) : 0, headers, bodyStart: end + 4 };
}

/** Decodes a complete chunked body; undefined while incomplete. */
function dechunk(buf: Buffer): Buffer | undefined {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const size = parseInt(buf.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) return Buffer.concat(out);
    if (size === 0) return Buffer.concat(out);
    if (buf.length < eol + 2 + size + 2) return undefined;
    out.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** Sends req to ep and reads one answer. Never rejects: failures are in the result. */
export function rawExchange(ep: Endpoint, req: RawRequest): Promise<RawResponse> {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    let done = false;
    let sock: TLSSocket | undefined;
    const finish = (r: RawResponse): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock?.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => {
      const p = parse(buf);
      finish({ status: p?.status ?? 0, headers: p?.headers ?? {}, body: p ? buf.subarray(p.bodyStart) : buf, hung: true });
    }, req.deadlineMs ?? 15_000);
    const settleIfComplete = (closed: string | undefined): void => {
      const p = parse(buf);
      if (!p) {
        if (closed !== undefined) finish({ status: 0, headers: {}, body: buf, hung: false, closedEarly: closed || 'closed' });
        return;
      }
      const rest = buf.subarray(p.bodyStart);
      const base = { status: p.status, headers: p.headers, hung: false };
      if (req.headOnly) {
        finish({ ...base, body: rest });
        return;
      }
      if (req.mayStream && p.status >= 200 && p.status < 300 && p.headers['transfer-encoding'] === 'chunked') {
        const full = dechunk(rest);
        finish({ ...base, body: full ?? rest, streaming: full === undefined });
        return;
      }
      if (p.headers['content-length'] !== undefined) {
        const n = Number(p.headers['content-length']);
        if (rest.length >= n) finish({ ...base, body: rest.subarray(0, n) });
        else if (closed !== undefined) finish({ ...base, body: rest, closedEarly: closed || 'closed' });
        return;
      }
      if (p.headers['transfer-encoding'] === 'chunked') {
        const full = dechunk(rest);
        if (full && rest.subarray(rest.length - 5).toString('latin1') === '0\r\n\r\n') finish({ ...base, body: full });
        else if (closed !== undefined) finish({ ...base, body: full ?? rest, ...(full ? {} : { closedEarly: closed || 'closed' }) });
        return;
      }
      if (closed !== undefined) finish({ ...base, body: rest });
    };
    sock = connect({ host: '127.0.0.1', port: ep.port, ca: ep.ca, servername: 'localhost', ...(ep.cert ? { cert: ep.cert.cert, key: ep.cert.key } : {}) });
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      settleIfComplete(undefined);
    });
    sock.on('error', (e) => settleIfComplete(e.message));
    sock.on('close', () => settleIfComplete(''));
    sock.once('secureConnect', () => {
      void (async () => {
        const s = sock;
        if (!s) return;
        s.write(req.head);
        for (const part of req.parts ?? []) {
          if (req.pauseMs) await new Promise((r) => setTimeout(r, req.pauseMs));
          if (done || s.destroyed) return;
          s.write(part);
        }
        if (req.finish === 'end') s.end();
        else if (req.finish === 'destroy') {
          s.destroy();
          finish({ status: 0, headers: {}, body: Buffer.alloc(0), hung: false, closedEarly: 'destroyed by the client' });
        }
      })();
    });
  });
}
