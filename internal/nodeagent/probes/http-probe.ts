/**
 * The httpGet prober (kubelet's pkg/probe/http): GET with kubelet's headers (User-Agent
 * kube-probe/<major>.<minor> and Accept "any type" unless given; an explicit Host header sets the host),
 * no keep-alive, TLS without verification for HTTPS, redirects followed while they stay on the
 * same host (at most 10), one timeout for the whole exchange, at most 10 KiB of body read.
 * 200-399 succeeds (a redirect kubelet stops at is a warning); anything else fails with
 * "HTTP probe failed with statuscode: <code>"; a transport error fails with Go's error text.
 */
import http from 'node:http';
import https from 'node:https';
import { maxProbeOutputBytes, type ProbeOutcome } from './interface.js';

/** kubelet's probe User-Agent for this release line. */
export const probeUserAgent = 'kube-probe/1.33';

/** One HTTP header as a probe names it. */
export interface ProbeHeader {
  readonly name: string;
  readonly value: string;
}

/** Go's canonical header name (CanonicalMIMEHeaderKey). */
function canonicalHeader(name: string): string {
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

/** The request headers kubelet sends for these probe headers. */
export function probeRequestHeaders(headers: readonly ProbeHeader[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const h of headers) (out[canonicalHeader(h.name)] ??= []).push(h.value);
  if (!out['User-Agent']) out['User-Agent'] = [probeUserAgent];
  if (!out.Accept) out.Accept = ['*/*'];
  else if (out.Accept.length > 0 && out.Accept[0] === '') delete out.Accept;
  return out;
}

/** The text Go's net/http gives a failed client request. */
function goError(url: string, err: NodeJS.ErrnoException, hostPort: string): string {
  const dial = `dial tcp ${hostPort}`;
  switch (err.code) {
    case 'ECONNREFUSED':
      return `Get "${url}": ${dial}: connect: connection refused`;
    case 'EHOSTUNREACH':
      return `Get "${url}": ${dial}: connect: no route to host`;
    case 'ENETUNREACH':
      return `Get "${url}": ${dial}: connect: network is unreachable`;
    case 'ECONNRESET':
      return `Get "${url}": read tcp ${hostPort}: read: connection reset by peer`;
    default:
      return `Get "${url}": ${err.message}`;
  }
}

interface Answer {
  readonly code: number;
  readonly location?: string;
  readonly body: string;
}

function getOnce(url: URL, headers: Record<string, string[]>, signal: AbortSignal): Promise<Answer> {
  const hostHeader = headers.Host?.[0];
  const sendHeaders: Record<string, string[] | string> = { ...headers };
  delete sendHeaders.Host;
  if (hostHeader) sendHeaders.host = hostHeader;
  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve, reject) => {
    const req = get(url, { headers: sendHeaders, agent: false, signal, ...(url.protocol === 'https:' ? { rejectUnauthorized: false } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < maxProbeOutputBytes) chunks.push(c.subarray(0, maxProbeOutputBytes - size));
        size += c.length;
        // Past the limit kubelet stops reading (a non-fatal truncation).
        if (size >= maxProbeOutputBytes) res.destroy();
      });
      const done = (): void => resolve({ code: res.statusCode ?? 0, ...(res.headers.location ? { location: res.headers.location } : {}), body: Buffer.concat(chunks).toString('utf8') });
      res.on('end', done);
      res.on('close', done);
      res.on('error', (err) => (size >= maxProbeOutputBytes ? done() : reject(err)));
    });
    req.on('error', reject);
  });
}

/** Runs one HTTP probe of url (http or https) within timeoutMs. */
export async function httpProbe(rawUrl: string, headers: readonly ProbeHeader[], timeoutMs: number): Promise<ProbeOutcome> {
  const requestHeaders = probeRequestHeaders(headers);
  const signal = AbortSignal.timeout(timeoutMs);
  let url = new URL(rawUrl);
  const firstHost = url.hostname;
  for (let redirects = 0; ; redirects++) {
    let answer: Answer;
    try {
      answer = await getOnce(url, requestHeaders, signal);
    } catch (err) {
      if (signal.aborted) return { result: 'failure', output: `Get "${url.href}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` };
      return { result: 'failure', output: goError(url.href, err as NodeJS.ErrnoException, url.host) };
    }
    const isRedirect = [301, 302, 303, 307, 308].includes(answer.code) && answer.location !== undefined;
    if (isRedirect) {
      const next = new URL(answer.location!, url);
      if (next.hostname === firstHost) {
        if (redirects + 1 >= 10) return { result: 'failure', output: `Get "${next.href}": stopped after 10 redirects` };
        url = next;
        continue;
      }
    }
    if (answer.code >= 200 && answer.code < 400) {
      if (answer.code >= 300) return { result: 'warning', output: `Probe terminated redirects, Response body: ${answer.body}` };
      return { result: 'success', output: answer.body };
    }
    return { result: 'failure', output: `HTTP probe failed with statuscode: ${answer.code}` };
  }
}
