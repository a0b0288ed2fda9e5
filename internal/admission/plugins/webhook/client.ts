/**
 * Calls one webhook over HTTPS (kube's ClientManager hook client): the URL of clientConfig.url, or
 * https://<service>.<namespace>.svc:<port><path> dialed at the address the service resolves to;
 * the server is verified against caBundle (the system roots without one); credentials come from the
 * admission kubeconfig by host. Each call carries kube's `?timeout=<n>s` and ends at the deadline.
 */
import { Agent, request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { isIP } from 'node:net';
import { WebhookStatusError } from '../../../webhook/client.js';
import type { WebhookCredentials } from '../../../webhook/kubeconfig.js';
import type { AuthenticationResolver } from './authentication.js';
import type { AddressResolver } from './service-resolver.js';
import type { WebhookClientConfig } from './types.js';

/** A call that did not get a 2xx answer: its message (kube's text) and the code metrics report. */
export class CallError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
    this.name = 'CallError';
  }
}

const maxResponseBytes = 16 * 1024 * 1024;

/** Go's net/http words for Node's connection errors. */
function goNetError(err: NodeJS.ErrnoException, host: string): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${host}: connect: connection refused`;
    case 'ECONNRESET':
      return `read tcp ${host}: read: connection reset by peer`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `dial tcp: lookup ${host.replace(/:\d+$/, '')}: no such host`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: ${err.message}`;
    case 'CERT_HAS_EXPIRED':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    default:
      return err.message;
  }
}

/** The client for one webhook's clientConfig. Keeps connections alive; close() ends them. */
export class HookClient {
  private readonly agent: Agent;
  private readonly credentials: WebhookCredentials;

  constructor(
    private readonly config: WebhookClientConfig,
    auth: AuthenticationResolver,
    private readonly services: AddressResolver,
  ) {
    const svc = config.service;
    this.credentials = svc ? auth.forService(svc.name, svc.namespace, svc.port ?? 443) : auth.forHost(new URL(config.url ?? '').host);
    const ca = config.caBundle ? Buffer.from(config.caBundle, 'base64') : undefined;
    this.agent = new Agent({
      keepAlive: true,
      ...(ca && ca.length > 0 ? { ca } : {}),
      ...(this.credentials.clientCert && this.credentials.clientKey ? { cert: this.credentials.clientCert, key: this.credentials.clientKey } : {}),
    });
  }

  /** The URL a call goes to (before the timeout parameter). */
  baseUrl(): URL {
    const svc = this.config.service;
    if (!svc) return new URL(this.config.url ?? '');
    return new URL(`https://${svc.name}.${svc.namespace}.svc:${svc.port ?? 443}${svc.path ?? ''}`);
  }

  /**
   * POSTs body; resolves with the parsed JSON answer, rejects with a CallError in kube's words.
   * timeoutMs bounds the whole call; signal (the request's) ends it early.
   */
  async post(body: unknown, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    const url = this.baseUrl();
    // kube rounds the remaining time up to whole seconds for the webhook's own deadline.
    url.searchParams.set('timeout', `${Math.max(1, Math.ceil(timeoutMs / 1000))}s`);
    const svc = this.config.service;
    // Go keeps the service's port in the URL it reports, 443 included; WHATWG URLs drop it.
    const href = svc && url.port === '' ? `${url.protocol}//${url.hostname}:443${url.pathname}${url.search}` : url.href;
    const shown = `Post ${JSON.stringify(href)}`;
    let connectHost = url.hostname;
    let connectPort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (svc) {
      try {
        const addr = await this.services.resolve(svc.namespace, svc.name, svc.port ?? 443);
        connectHost = addr.host;
        connectPort = addr.port;
      } catch (err) {
        throw new CallError(`${shown}: ${(err as Error).message}`, 0);
      }
    }
    const payload = Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json, */*', 'Content-Length': String(payload.length) };
    const c = this.credentials;
    if (c.token) headers.Authorization = `Bearer ${c.token}`;
    else if (c.username !== undefined) headers.Authorization = `Basic ${Buffer.from(`${c.username}:${c.password ?? ''}`).toString('base64')}`;
    const hostHeader = url.host;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return await new Promise<unknown>((resolve, reject) => {
      let settled = false;
      const done = (err: Error | undefined, value?: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve(value);
      };
      const req = send(
        {
          host: connectHost,
          port: connectPort,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { ...headers, Host: hostHeader },
          ...(url.protocol === 'https:' ? { agent: this.agent, ...(isIP(url.hostname.replace(/^\[|\]$/g, '')) === 0 ? { servername: url.hostname } : {}) } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxResponseBytes) req.destroy(new Error('the response is too large'));
            else chunks.push(chunk);
          });
          res.on('error', (err) => done(new CallError(`${shown}: ${goNetError(err, `${connectHost}:${connectPort}`)}`, 0)));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            const text = Buffer.concat(chunks).toString('utf8');
            if (status < 200 || status > 299) {
              const e = new WebhookStatusError(status, text, res.headers);
              return done(new CallError(e.message, status));
            }
            try {
              done(undefined, JSON.parse(text));
            } catch (err) {
              done(new CallError((err as Error).message, status));
            }
          });
        },
      );
      const fail = (why: string) => () => req.destroy(Object.assign(new Error(why), { code: 'CAPSTAN_DEADLINE' }));
      const timer = setTimeout(fail('context deadline exceeded'), timeoutMs);
      const onAbort = fail('context canceled');
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err: NodeJS.ErrnoException) => {
        const text = err.code === 'CAPSTAN_DEADLINE' ? err.message : goNetError(err, `${connectHost}:${connectPort}`);
        done(new CallError(`${shown}: ${text}`, 0));
      });
      req.end(payload);
    });
  }

  /** Ends kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}
