/**
 * GETs from extension servers for the aggregator's own use (discovery, OpenAPI): as
 * system:kube-aggregator in system:masters, through the APIService's agent, with a timeout.
 */
import { request, type Agent } from 'node:https';
import { setAuthProxyHeaders } from './auth-proxy-headers.js';
import type { ResolvedBackend } from './interface.js';
import { describeRequestError } from './request-errors.js';

/** An answer: status, content type and body. */
export interface FetchedDocument {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
}

const maxBytes = 64 * 1024 * 1024;

/** GETs path from backend; rejects on a connection error, a timeout or a non-2xx answer. */
export function fetchFromBackend(backend: ResolvedBackend, agent: Agent, path: string, accept: string, timeoutMs = 10_000): Promise<FetchedDocument> {
  const url = `https://${backend.host}${path}`;
  return new Promise<FetchedDocument>((resolve, reject) => {
    const headers: Record<string, string | string[]> = { Accept: accept };
    setAuthProxyHeaders(headers, { name: 'system:kube-aggregator', groups: ['system:masters'] }, false);
    const req = request(url, { method: 'GET', agent, headers, servername: backend.serverName }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) req.destroy(new Error(`answer from ${url} is too large`));
        else chunks.push(c);
      });
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) reject(new Error(`GET ${url}: ${status}`));
        else resolve({ status, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { code: 'CLIENT_TIMEOUT' })), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (err: NodeJS.ErrnoException) => reject(new Error(`Get ${JSON.stringify(url)}: ${describeRequestError(err, url)}`)));
    req.end();
  });
}
