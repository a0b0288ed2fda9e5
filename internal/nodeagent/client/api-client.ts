/**
 * The node agent's client of the API server: it talks to the API only through HTTPS as its own
 * identity (system:node:<name>, from --kubeconfig or the certificate the bootstrap obtained), as
 * kubelet does, so the Node authorizer and NodeRestriction apply to it. JSON requests with
 * keep-alive connections, a token bucket (--kube-api-qps / --kube-api-burst; watches are not
 * throttled, as client-go's rate limiter only guards request starts), watches as async iterables
 * of events, and credentials that can be swapped while running (client certificate rotation).
 */
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { URL } from 'node:url';
import type { KubeObject } from '../../../api/meta/types.js';
import { TokenBucket } from './token-bucket.js';

/** Where and as whom the client talks. */
export interface ApiClientConfig {
  /** https://host:port of the API server. */
  readonly server: string;
  readonly ca?: Buffer;
  readonly insecureSkipTLSVerify?: boolean;
  readonly tlsServerName?: string;
  readonly clientCert?: Buffer;
  readonly clientKey?: Buffer;
  readonly token?: string;
  /** Requests per second and burst (0 qps: not limited). */
  readonly qps?: number;
  readonly burst?: number;
  readonly userAgent?: string;
}

/** A non-2xx answer: the Status the server sent (reason, message, code). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly status?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** One event of a watch. */
export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: KubeObject;
}

/** Options of one request. */
export interface RequestOptions {
  readonly query?: Record<string, string | undefined>;
  readonly body?: unknown;
  /** Content type of the body (JSON by default; patches name theirs). */
  readonly contentType?: string;
  readonly signal?: AbortSignal;
}

/** The client. */
export class ApiClient {
  private agent!: https.Agent;
  private cfg: ApiClientConfig;
  private readonly bucket: TokenBucket | undefined;

  constructor(cfg: ApiClientConfig) {
    this.cfg = cfg;
    this.bucket = cfg.qps && cfg.qps > 0 ? new TokenBucket(cfg.qps, Math.max(1, cfg.burst ?? 1)) : undefined;
    this.setCredentials(cfg);
  }

  /** The API server's URL. */
  get server(): string {
    return this.cfg.server;
  }

  /** Replaces the client certificate (or token); requests after this use the new one. */
  setCredentials(creds: Pick<ApiClientConfig, 'clientCert' | 'clientKey' | 'token'>): void {
    this.cfg = { ...this.cfg, ...creds };
    const old = this.agent as https.Agent | undefined;
    this.agent = new https.Agent({
      keepAlive: true,
      ...(this.cfg.ca ? { ca: this.cfg.ca } : {}),
      rejectUnauthorized: !this.cfg.insecureSkipTLSVerify,
      ...(this.cfg.tlsServerName ? { servername: this.cfg.tlsServerName } : {}),
      ...(this.cfg.clientCert && this.cfg.clientKey ? { cert: this.cfg.clientCert, key: this.cfg.clientKey } : {}),
    });
    old?.destroy();
  }

  private url(path: string, query?: RequestOptions['query']): URL {
    const url = new URL(path, this.cfg.server);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    return url;
  }

  private send(method: string, path: string, opts: RequestOptions, accept = 'application/json'): Promise<IncomingMessage> {
    const url = this.url(path, opts.query);
    const body = opts.body === undefined ? undefined : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(JSON.stringify(opts.body));
    const headers: Record<string, string> = { accept, 'user-agent': this.cfg.userAgent ?? 'capstan-nodeagent' };
    if (this.cfg.token) headers.authorization = `Bearer ${this.cfg.token}`;
    if (body) {
      headers['content-type'] = opts.contentType ?? 'application/json';
      headers['content-length'] = String(body.length);
    }
    return new Promise((resolve, reject) => {
      const req = https.request(url, { method, headers, agent: this.agent, ...(opts.signal ? { signal: opts.signal } : {}) }, resolve);
      req.on('error', reject);
      req.end(body);
    });
  }

  /** One request; resolves with the decoded JSON answer, rejects with ApiError for non-2xx. */
  async request<T = KubeObject>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    await this.bucket?.take(opts.signal);
    const res = await this.send(method, path, opts);
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const code = res.statusCode ?? 0;
    if (code < 200 || code > 299) throw apiErrorOf(code, text);
    return (text ? JSON.parse(text) : {}) as T;
  }

  get<T = KubeObject>(path: string, opts?: RequestOptions): Promise<T> {
    return this.request<T>('GET', path, opts);
  }

  create<T = KubeObject>(path: string, body: unknown, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('POST', path, { ...opts, body });
  }

  update<T = KubeObject>(path: string, body: unknown, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('PUT', path, { ...opts, body });
  }

  /** A patch; type 'merge' | 'strategic' | 'json' | 'apply' picks the content type. */
  patch<T = KubeObject>(path: string, type: 'merge' | 'strategic' | 'json' | 'apply', body: unknown, opts: RequestOptions = {}): Promise<T> {
    const contentType = { merge: 'application/merge-patch+json', strategic: 'application/strategic-merge-patch+json', json: 'application/json-patch+json', apply: 'application/apply-patch+yaml' }[type];
    return this.request<T>('PATCH', path, { ...opts, body, contentType });
  }

  delete<T = KubeObject>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('DELETE', path, { ...opts, ...(body === undefined ? {} : { body }) });
  }

  /**
   * A watch (query gets watch=1): yields events until the server ends the stream or signal
   * aborts. A non-2xx answer rejects with ApiError before the first event.
   */
  async *watch(path: string, query: Record<string, string | undefined>, signal?: AbortSignal): AsyncGenerator<WatchEvent> {
    const res = await this.send('GET', path, { query: { ...query, watch: '1' }, ...(signal ? { signal } : {}) });
    const code = res.statusCode ?? 0;
    if (code < 200 || code > 299) {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      throw apiErrorOf(code, Buffer.concat(chunks).toString('utf8'));
    }
    let pending = '';
    try {
      for await (const chunk of res) {
        pending += (chunk as Buffer).toString('utf8');
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl).trim();
          pending = pending.slice(nl + 1);
          if (line) yield JSON.parse(line) as WatchEvent;
        }
      }
    } catch (err) {
      if (signal?.aborted) return;
      throw err;
    } finally {
      res.destroy();
    }
  }

  /** Closes idle connections. */
  close(): void {
    this.agent.destroy();
  }
}

/** The ApiError of a non-2xx answer's body (a metav1.Status when the server sent one). */
export function apiErrorOf(code: number, text: string): ApiError {
  try {
    const status = JSON.parse(text) as Record<string, unknown>;
    if (status.kind === 'Status') return new ApiError(code, String(status.reason ?? ''), String(status.message ?? ''), status);
  } catch {
    // Not JSON: kube answers some errors in plain text (429s, 404s of unserved groups).
  }
  return new ApiError(code, '', text.trim() || `HTTP ${code}`);
}

/** True when err is an ApiError with the given HTTP code. */
export function isApiCode(err: unknown, code: number): boolean {
  return err instanceof ApiError && err.code === code;
}
