/**
 * httplog (kube's WithHTTPLogging): at -v=3 and above (or --vmodule=httplog=3) each request logs
 * one line when its response closes, as kube-apiserver's httplog does:
 *
 *   "HTTP" verb="LIST" URI="/api/v1/pods?limit=500" latency="2.3ms" userAgent="kubectl/v1.33.0 ..."
 *   audit-ID="..." srcIP="127.0.0.1:50112" resp=200
 *
 * verb is the normalised verb (LIST for a collection GET, WATCH, APPLY, CONNECT); latency runs
 * from this filter to the close of the response (for a watch, its end); audit-ID is the Audit-Id
 * response header (set by the audit filter). Pairs added with addHTTPLogKeyValue follow srcIP. A
 * response with a status below 200 or of 500 and above (101 aside) adds statusStack (the
 * JavaScript stack that wrote the status, where kube has the goroutine's) and addedInfo (the body
 * written, as "logging error output: <quoted>"). When the level is off the filter costs one
 * verbosity check: nothing is allocated and no listener is added.
 */
import { ServerResponse, type IncomingMessage } from 'node:http';
import { goQuote, GoDuration } from '../observability/go-text.js';
import type { KlogLogger } from '../observability/logging.js';
import type { RequestInfo } from '../request/request-info.js';
import type { Filter } from './interface.js';
import { stateOf } from './request-context.js';
import { queryBool } from '../request/query-params.js';

/** kube's withLoggingLevel. */
const httpLogLevel = 3;
/** GetAuditIDTruncated's limit. */
const maxAuditIDLength = 64;
const connectSubresources = new Set(['log', 'exec', 'proxy', 'attach', 'portforward']);

type WriteHead = ServerResponse['writeHead'];
type Write = ServerResponse['write'];
type End = ServerResponse['end'];

/** What is kept for one logged request. */
interface Entry {
  readonly log: KlogLogger;
  readonly startMs: number;
  readonly userAgent: string;
  readonly srcIP: string;
  readonly writeHead: WriteHead;
  readonly write: Write;
  readonly end: End;
  status: number;
  /** The status asks for the body to be logged (kube's captureErrorOutput). */
  captureOutput: boolean;
  statusStack: string;
  addedInfo: string;
  pairs?: Record<string, unknown>;
}

const entryKey = Symbol('httplog');
type Logged = ServerResponse & { [entryKey]?: Entry };

/**
 * The filter. log's verbosity is read on every request (/debug/flags/v may change it); below the
 * level the filter returns at once. At it, the response's writeHead, write and end become shared
 * functions that record the status (no closure per request) and one close listener logs the line.
 */
export function withHTTPLogging(log: KlogLogger): Filter {
  return (req, res) => {
    if (!log.enabled(httpLogLevel)) return;
    const logged = res as Logged;
    logged[entryKey] = {
      log,
      startMs: performance.now(),
      userAgent: req.headers['user-agent'] ?? '',
      srcIP: remoteAddr(req),
      writeHead: res.writeHead,
      write: res.write,
      end: res.end,
      status: 0,
      captureOutput: false,
      statusStack: '',
      addedInfo: '',
    };
    res.writeHead = loggedWriteHead as WriteHead;
    res.write = loggedWrite as Write;
    res.end = loggedEnd as End;
    res.once('close', logOnClose);
  };
}

/**
 * Adds a key/value pair to the request's HTTP line (kube's httplog.AddKeyValue); a no-op when the
 * request is not logged.
 */
export function addHTTPLogKeyValue(res: ServerResponse, key: string, value: unknown): void {
  const entry = (res as Logged)[entryKey];
  if (entry) (entry.pairs ??= {})[key] = value;
}

/** Whether kube's DefaultStacktracePred asks for the stack and the body of a status. */
function wantsStack(status: number): boolean {
  return (status < 200 || status >= 500) && status !== 101;
}

function loggedWriteHead(this: Logged, statusCode: number): unknown {
  const entry = this[entryKey];
  if (entry && !this.headersSent) {
    entry.status = statusCode;
    if (wantsStack(statusCode)) {
      const holder: { stack?: string } = {};
      Error.captureStackTrace(holder, loggedWriteHead);
      entry.statusStack = `\n${(holder.stack ?? '').split('\n').slice(1).join('\n')}`;
      entry.captureOutput = true;
    }
  }
  // eslint-disable-next-line prefer-rest-params
  return (entry?.writeHead ?? ServerResponse.prototype.writeHead).apply(this, arguments as unknown as Parameters<WriteHead>);
}

/** Adds what is written to addedInfo when the status (already sent, or about to be) asks for it. */
function captureOutput(res: Logged, entry: Entry, chunk: unknown): void {
  if (!entry.captureOutput && (res.headersSent || !wantsStack(res.statusCode))) return;
  if (typeof chunk === 'string' || chunk instanceof Uint8Array) {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
    entry.addedInfo += `logging error output: ${goQuote(text)}\n`;
  }
}

function loggedWrite(this: Logged, chunk: unknown): boolean {
  const entry = this[entryKey] as Entry;
  captureOutput(this, entry, chunk);
  // eslint-disable-next-line prefer-rest-params
  return entry.write.apply(this, arguments as unknown as Parameters<Write>);
}

function loggedEnd(this: Logged, chunk: unknown): Logged {
  const entry = this[entryKey] as Entry;
  if (typeof chunk !== 'function') captureOutput(this, entry, chunk);
  // eslint-disable-next-line prefer-rest-params
  return entry.end.apply(this, arguments as unknown as Parameters<End>) as Logged;
}

function logOnClose(this: Logged): void {
  const entry = this[entryKey];
  if (!entry) return;
  const req = this.req;
  const latency = new GoDuration((performance.now() - entry.startMs) * 1e6);
  const auditID = this.getHeader('Audit-Id');
  const pairs: Record<string, unknown> = {
    verb: normalizedVerb(req),
    URI: req.url ?? '',
    latency,
    userAgent: entry.userAgent,
    'audit-ID': typeof auditID === 'string' ? auditID.slice(0, maxAuditIDLength) : '',
    srcIP: entry.srcIP,
  };
  if (entry.pairs) Object.assign(pairs, entry.pairs);
  pairs.resp = entry.status;
  if (entry.statusStack) pairs.statusStack = entry.statusStack;
  if (entry.addedInfo) pairs.addedInfo = entry.addedInfo;
  entry.log.v(httpLogLevel, 'HTTP', pairs);
}

/** kube's metrics.NormalizedVerb: the method, GET as LIST for collections, WATCH, APPLY, CONNECT. */
export function normalizedVerb(req: IncomingMessage): string {
  const method = (req.method ?? 'GET').toUpperCase();
  let info: RequestInfo | undefined;
  try {
    info = stateOf(req).ctx.requestInfo;
  } catch {
    info = undefined;
  }
  let verb = method;
  if (info && (method === 'GET' || method === 'HEAD') && cleanScope(info) !== 'resource' && cleanScope(info) !== '') verb = 'LIST';
  if ((method === 'GET' || method === 'LIST') && watchAsked(req.url ?? '')) verb = 'WATCH';
  if (verb === 'PATCH' && req.headers['content-type'] === 'application/apply-patch+yaml') verb = 'APPLY';
  if (info?.isResourceRequest && connectSubresources.has(info.subresource)) verb = 'CONNECT';
  return verb;
}

function cleanScope(info: RequestInfo): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  return info.isResourceRequest ? 'cluster' : '';
}

/** The first ?watch= value is set and neither "0" nor "false" (Convert_Slice_string_To_bool). */
function watchAsked(url: string): boolean {
  const q = url.indexOf('?');
  if (q < 0 || !url.includes('watch', q)) return false;
  return queryBool(new URLSearchParams(url.slice(q + 1)).get('watch')) ?? false;
}

/** Go's RemoteAddr: "ip:port", "[ipv6]:port", IPv4-mapped addresses in dotted form. */
function remoteAddr(req: IncomingMessage): string {
  let ip = req.socket.remoteAddress ?? '';
  if (ip.startsWith('::ffff:') && ip.includes('.')) ip = ip.slice(7);
  const port = req.socket.remotePort ?? 0;
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}
