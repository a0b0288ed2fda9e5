/**
 * Writes response bodies: serialises once into the negotiated encoding (JSON, pretty JSON or
 * YAML), adds Warning headers, and gzips large bodies when the client accepts it (kube compresses
 * responses of 128 KiB and more). Large lists are streamed instead, by list-stream.ts, which uses
 * the header helpers here and falls back to writeBody for bodies under that threshold.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { createGzip, gzip } from 'node:zlib';
import { stringify as yamlStringify } from 'yaml';
import type { Status } from '../../../api/meta/types.js';
import { newInternalError } from '../../apierrors/factories.js';
import { StatusError } from '../../apierrors/status-error.js';
import { contentTypeOf, parseAccept, type Encoding } from './media-type.js';
import { encodeObject } from '../../../proto/codec.js';
import type { JsonObject } from '../../../proto/types.js';
import { warningHeaderValues } from './warning-header.js';

const gzipAsync = promisify(gzip);

/** kube's defaultGzipThresholdBytes: smaller bodies are sent uncompressed. */
export const gzipThresholdBytes = 128 * 1024;

/**
 * Whether output should be indented, as kube's isPrettyPrint decides: a non-empty ?pretty= read by
 * strconv.ParseBool (anything it does not read is false), else whether the client is curl, Wget or
 * a browser (User-Agent Mozilla/5.0).
 */
export function wantsPretty(req: IncomingMessage, query: URLSearchParams): boolean {
  const p = query.get('pretty');
  if (p !== null && p !== '') return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(p);
  const ua = req.headers['user-agent'] ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}

/**
 * The newline kube's JSON encoder (Go's json.Encoder) writes after every compact JSON object:
 * shared, written after cached bytes rather than copied onto them.
 */
export const jsonNewline: Buffer = Buffer.from('\n');

/**
 * Serialises value in the given encoding (Protobuf needs an object with apiVersion and kind).
 * Compact JSON ends with a newline and pretty JSON does not, as kube's serializer writes them
 * (json.Encoder.Encode, json.MarshalIndent).
 */
export function encodeBody(value: unknown, encoding: Encoding, pretty: boolean): Buffer {
  if (encoding === 'yaml') return Buffer.from(yamlStringify(value, { lineWidth: 0 }));
  if (encoding === 'protobuf') {
    const bytes = encodeObject(value as JsonObject);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return Buffer.from(pretty ? JSON.stringify(value, null, 2) : `${JSON.stringify(value)}\n`);
}

const noCompression = Symbol('capstan.noResponseCompression');

/** Marks a request whose response must not be gzipped (the APIResponseCompression gate is off). */
export function disableResponseCompression(req: IncomingMessage): void {
  (req as IncomingMessage & { [noCompression]?: true })[noCompression] = true;
}

/** Whether the response may be gzipped: the client's Accept-Encoding names gzip and compression is not off. */
export function acceptsGzip(req: IncomingMessage): boolean {
  if ((req as IncomingMessage & { [noCompression]?: true })[noCompression]) return false;
  const h = req.headers['accept-encoding'];
  if (!h) return false;
  return h
    .split(',')
    .map((s) => s.trim().split(';')[0]?.trim().toLowerCase())
    .includes('gzip');
}

/** Sets `Warning: 299 - "<text>"` headers for the request's warnings. */
export function setWarnings(res: ServerResponse, warnings: readonly string[]): void {
  if (warnings.length === 0 || res.headersSent) return;
  const values = warningHeaderValues(warnings);
  if (values.length > 0) res.setHeader('Warning', values);
}

/** Sets the status code, Content-Type and (unless set) Cache-Control of a response about to be written. */
export function setBodyHeaders(res: ServerResponse, code: number, contentType: string): void {
  res.statusCode = code;
  res.setHeader('Content-Type', contentType);
  if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-cache, private');
}

/** Marks a response as gzipped: Content-Encoding, and Accept-Encoding added to Vary. Call before the first byte. */
export function setGzipHeaders(res: ServerResponse): void {
  res.setHeader('Content-Encoding', 'gzip');
  const vary = res.getHeader('Vary');
  res.setHeader('Vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
}

/** Gzips body followed by tail without joining them first. */
function gzipPieces(body: Buffer, tail: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const z = createGzip();
    const out: Buffer[] = [];
    z.on('data', (c: Buffer) => out.push(c));
    z.on('end', () => resolve(Buffer.concat(out)));
    z.on('error', reject);
    z.write(body);
    z.end(tail);
  });
}

/**
 * Writes a complete body with status code and content type; gzips it when large and accepted.
 * tail, when given, is sent right after body as part of it (the newline after cached JSON bytes):
 * neither is copied, and both leave in one socket write.
 */
export async function writeBody(req: IncomingMessage, res: ServerResponse, code: number, contentType: string, body: Buffer, tail?: Buffer): Promise<void> {
  // A request that timed out (or whose client left) has been answered already.
  if (res.headersSent || res.writableEnded) return;
  setBodyHeaders(res, code, contentType);
  const length = body.length + (tail?.length ?? 0);
  if (length >= gzipThresholdBytes && acceptsGzip(req)) {
    const zipped = tail ? await gzipPieces(body, tail) : await gzipAsync(body);
    if (res.headersSent || res.writableEnded) return;
    setGzipHeaders(res);
    res.setHeader('Content-Length', zipped.length);
    res.end(req.method === 'HEAD' ? undefined : zipped);
    return;
  }
  res.setHeader('Content-Length', length);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  if (!tail) {
    res.end(body);
    return;
  }
  // Corked, the headers, body and tail leave in one write (end() uncorks).
  res.cork();
  res.write(body);
  res.end(tail);
}

/** Converts any thrown value into a StatusError; unknown errors become InternalError (and are reported). */
export function toStatusError(err: unknown, report?: (err: unknown) => void): StatusError {
  if (err instanceof StatusError) return err;
  report?.(err);
  return newInternalError(err instanceof Error ? err.message : String(err));
}

/**
 * The encoding to write a Status in: the first of JSON, YAML and Protobuf the client accepts, else
 * JSON. Clauses asking for a conversion (as=, g=, v=) cannot carry a Status and are passed over,
 * as kube's default endpoint restrictions do.
 */
export function statusEncoding(accept: string | undefined): Encoding {
  for (const r of parseAccept(accept)) {
    if (r.params.as !== undefined || r.params.g !== undefined || r.params.v !== undefined) continue;
    if (r.type === 'application' && r.subtype === 'yaml') return 'yaml';
    if (r.type === 'application' && r.subtype === 'vnd.kubernetes.protobuf') return 'protobuf';
    if (r.type === 'application' && (r.subtype === 'json' || r.subtype === '*')) return 'json';
    if (r.type === '*') return 'json';
  }
  return 'json';
}

/** Writes err as a metav1.Status with its code, and Retry-After for 429 and 5xx statuses that carry one. */
export async function writeStatus(
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  err: unknown,
  warnings: readonly string[] = [],
  report?: (err: unknown) => void,
): Promise<void> {
  const se = toStatusError(err, report);
  const status: Status = se.status;
  if (res.headersSent || res.writableEnded) {
    // A streamed list that was cut off has destroyed the connection already: nothing to end.
    if (!res.writableEnded && !res.destroyed) res.end();
    return;
  }
  const code = status.code ?? 500;
  const retry = status.details?.retryAfterSeconds;
  if (retry && (code === 429 || code >= 500)) res.setHeader('Retry-After', String(retry));
  setWarnings(res, warnings);
  const encoding = statusEncoding(req.headers.accept);
  await writeBody(req, res, code, contentTypeOf(encoding), encodeBody(status, encoding, wantsPretty(req, query)));
}
