/**
 * One encoding of a served OpenAPI document, built once per change: the bytes, the gzipped bytes
 * when large enough, and kube-openapi's ETag (the quoted upper-case hex SHA-512), with the request
 * checks both OpenAPI endpoints share.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import { gzipThresholdBytes } from '../negotiation/writer.js';

/** Bytes served for one document and encoding. Never mutate. */
export interface Representation {
  readonly body: Buffer;
  /** The gzipped body when it is large enough to be worth compressing (kube's 128 KiB threshold). */
  readonly gzipped: Buffer | undefined;
  /** The upper-case hex SHA-512 of body (what /openapi/v3 puts in ?hash=). */
  readonly hash: string;
  /** hash, quoted. */
  readonly etag: string;
}

/** Builds the representation of body (hashing and gzipping it now: call once per change, not per request). */
export function representation(body: Buffer): Representation {
  const hash = createHash('sha512').update(body).digest('hex').toUpperCase();
  return { body, gzipped: body.length >= gzipThresholdBytes ? gzipSync(body) : undefined, hash, etag: `"${hash}"` };
}

/** Whether the request accepts a gzip Content-Encoding. */
export function acceptsGzip(req: IncomingMessage): boolean {
  const h = req.headers['accept-encoding'];
  return typeof h === 'string' && h.split(',').some((part) => part.trim().split(';')[0]?.trim().toLowerCase() === 'gzip');
}

/** Whether an If-None-Match header names etag (or is "*"); weak validators compare equal, as in net/http. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}
