/**
 * Forwards one HTTP request to a backend and streams the answer back (kube's UpgradeAwareHandler
 * with the proxy transport, for plain HTTP): the request body and the response body stream both
 * ways without buffering, hop-by-hop and credential headers stay behind, X-Forwarded-* headers
 * are added, and a backend that cannot be reached is 503 "error trying to reach service: ...".
 */
import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import https from 'node:https';
import { newServiceUnavailable } from '../apierrors/factories.js';
import { isHttp2, requestHost } from '../server/serving/protocol.js';
import { throttle } from './throttle.js';

/** Headers that belong to one connection (RFC 7230 6.1) and are never forwarded. */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Where a proxied request goes. */
export interface ProxyLocation {
  readonly scheme: 'http' | 'https';
  /** host:port (IPv6 bracketed). */
  readonly host: string;
  /** The backend path (already joined with the request's subpath). */
  readonly path: string;
  /** The request's subpath (what follows .../proxy), to find the proxy prefix of the request path. */
  readonly subpath: string;
}

/** The request path up to and including its proxy subresource (kube's PathPrepend). */
export function proxyPrefix(requestPath: string, subpath: string): string {
  const trimmed = subpath.replace(/\/+$/, '');
  const base = requestPath.replace(/\/+$/, '');
  return trimmed && base.endsWith(trimmed) ? base.slice(0, base.length - trimmed.length) : base;
}

/**
 * kube's proxy transport rewriteURL for a redirect: a Location on the backend itself (no host, the
 * backend's, or the API server's) with an absolute path is sent back through the proxy prefix.
 */
export function rewriteLocation(location: string, backendHost: string, requestHost: string, prefix: string): string {
  let url: URL;
  try {
    url = new URL(location, 'http://relative.invalid');
  } catch {
    return location;
  }
  const relativeHost = url.host === 'relative.invalid';
  const host = relativeHost ? '' : url.host;
  // URL drops a scheme's default port: compare hosts as URL writes them.
  const sameAs = (h: string): boolean => {
    try {
      return new URL(`${url.protocol}//${h}`).host === host;
    } catch {
      return false;
    }
  };
  if ((host !== '' && !sameAs(backendHost) && !sameAs(requestHost)) || !location.replace(/^[a-z]+:\/\/[^/]*/i, '').startsWith('/')) return location;
  if (url.pathname.startsWith(prefix)) return relativeHost ? `${url.pathname}${url.search}${url.hash}` : `https://${requestHost}${url.pathname}${url.search}${url.hash}`;
  const joined = `/${[...prefix.split('/'), ...url.pathname.split('/')].filter(Boolean).join('/')}${url.pathname.endsWith('/') ? '/' : ''}`;
  return `https://${requestHost}${joined}${url.search}${url.hash}`;
}

/** A Go-like rendering of a dial error, as kube's message shows it. */
export function describeDialError(err: NodeJS.ErrnoException, host: string): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${host}: connect: connection refused`;
    case 'ETIMEDOUT':
      return `dial tcp ${host}: i/o timeout`;
    case 'EHOSTUNREACH':
      return `dial tcp ${host}: connect: no route to host`;
    case 'ECONNRESET':
      return 'read: connection reset by peer';
    default:
      return err.message;
  }
}

function forwardedHeaders(req: IncomingMessage, location: ProxyLocation): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const connectionTokens = new Set(
    String(req.headers.connection ?? '')
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean),
  );
  for (const [name, value] of Object.entries(req.headers)) {
    // HTTP/2's pseudo-headers (:method, :path, :authority, :scheme) are not headers of the request.
    if (value === undefined || name.startsWith(':') || hopByHop.has(name) || connectionTokens.has(name)) continue;
    // The API server consumed these: the backend must not see the caller's credentials.
    if (name === 'authorization' || name.startsWith('impersonate-') || name === 'host') continue;
    out[name] = value;
  }
  const remote = req.socket.remoteAddress ?? '';
  const prior = req.headers['x-forwarded-for'];
  out['x-forwarded-for'] = prior ? `${String(prior)}, ${remote}` : remote;
  out['x-forwarded-uri'] = (req.url ?? '/').split('?')[0] as string;
  const host = requestHost(req);
  if (host) out['x-forwarded-host'] = host;
  out['x-forwarded-proto'] = 'https';
  out.host = location.host;
  return out;
}

/** How a proxied request is carried. */
export interface ProxyOptions {
  /** --max-connection-bytes-per-sec: each direction throttled to this (0 or absent: not throttled). */
  readonly maxBytesPerSec?: number;
  /** The HTTPS agent to reach the backend with (nodes/proxy: the kubelet client's identity and CA); absent: no verification. */
  readonly agent?: https.Agent;
}

/**
 * Proxies req to location with the request's query. Resolves when the answer has been streamed;
 * rejects with a StatusError (503) when the backend cannot be reached before any answer began.
 */
export function proxyHttp(req: IncomingMessage, res: ServerResponse, location: ProxyLocation, opts: ProxyOptions = {}): Promise<void> {
  const limit = opts.maxBytesPerSec ?? 0;
  const url = new URL(req.url ?? '/', 'http://placeholder');
  let path = location.path;
  // The request ended in '/': so does the backend path (kube does the same).
  if (url.pathname.endsWith('/') && !path.endsWith('/')) path += '/';
  if (path === '') {
    // kube redirects a proxy request with an empty path to the same path with '/' (issue 4958).
    res.writeHead(301, { location: `${url.pathname}/${url.search}` });
    res.end();
    return Promise.resolve();
  }
  const client = location.scheme === 'https' ? https : http;
  return new Promise<void>((resolve, reject) => {
    let answered = false;
    const upstream = client.request(
      {
        method: req.method,
        host: location.host.startsWith('[') ? location.host.slice(1, location.host.lastIndexOf(']')) : location.host.split(':')[0],
        port: location.host.slice(location.host.lastIndexOf(':') + 1),
        path: `${path}${url.search}`,
        headers: forwardedHeaders(req, location),
        // Pods and services are reached by IP: no name to verify (kube's proxy transport skips it too).
        ...(location.scheme === 'https' ? (opts.agent ? { agent: opts.agent } : { rejectUnauthorized: false }) : {}),
      },
      (answer) => {
        answered = true;
        const headers: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !hopByHop.has(name)) headers[name] = value;
        const requestedHost = requestHost(req);
        if (typeof headers.location === 'string' && requestedHost) {
          headers.location = rewriteLocation(headers.location, location.host, requestedHost, proxyPrefix(url.pathname, location.subpath));
        }
        // HTTP/2 has no reason phrase.
        if (isHttp2(req)) res.writeHead(answer.statusCode ?? 502, headers);
        else res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
        if (limit > 0) answer.pipe(throttle(limit)).pipe(res);
        else answer.pipe(res);
        answer.on('end', () => resolve());
        answer.on('error', () => {
          res.destroy();
          resolve();
        });
      },
    );
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (answered) {
        res.destroy();
        resolve();
        return;
      }
      reject(newServiceUnavailable(`error trying to reach service: ${describeDialError(err, location.host)}`));
    });
    // A caller that goes away takes the backend request with it.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (limit > 0) req.pipe(throttle(limit)).pipe(upstream);
    else req.pipe(upstream);
  });
}
