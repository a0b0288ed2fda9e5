/**
 * The availability controller's discovery check (kube's remote available controller): GET
 * /apis/<group>/<version> of the extension server (/api/v1 for "v1."), as system:kube-aggregator
 * in system:masters, without verifying the server's certificate, five tries at once of which one
 * 2xx answer within 5 s is enough. The error names the URL as Go's http client does.
 */
import { request, type Agent } from 'node:https';
import type { APIServiceView, ResolvedBackend } from './interface.js';
import { setAuthProxyHeaders } from './auth-proxy-headers.js';
import { describeRequestError } from './request-errors.js';

const attempts = 5;
const timeoutMs = 5_000;

function once(url: string, agent: Agent, serverName: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const headers = {};
    setAuthProxyHeaders(headers, { name: 'system:kube-aggregator', groups: ['system:masters'] }, false);
    const req = request(url, { method: 'GET', agent, headers, servername: serverName, timeout: timeoutMs }, (res) => {
      res.resume();
      const code = res.statusCode ?? 0;
      if (code < 200 || code >= 300) reject(new Error(`bad status from ${url}: ${code}`));
      else resolve();
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { code: 'CLIENT_TIMEOUT' })), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (err: NodeJS.ErrnoException) => reject(new Error(`Get ${JSON.stringify(url)}: ${describeRequestError(err, url)}`)));
    req.end();
  });
}

/** Resolves when the extension server answers discovery; rejects with kube's message otherwise. */
export async function checkDiscovery(api: APIServiceView, resolve: () => ResolvedBackend, agent: Agent): Promise<void> {
  let lastError: Error | undefined;
  const tries = Array.from({ length: attempts }, async () => {
    const backend = resolve();
    const url = `https://${backend.host}${api.name === 'v1.' ? `/api/${api.version}` : `/apis/${api.group}/${api.version}`}`;
    try {
      await once(url, agent, backend.serverName);
    } catch (err) {
      throw new Error(`failing or missing response from ${url}: ${(err as Error).message}`);
    }
  });
  const results = await Promise.allSettled(tries);
  for (const r of results) {
    if (r.status === 'fulfilled') return;
    lastError = r.reason as Error;
  }
  throw lastError ?? new Error('discovery check failed');
}
