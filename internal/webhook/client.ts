/**
 * A JSON-over-HTTPS client for one webhook (kube's rest client behind GenericWebhook): POSTs a
 * review object to the kubeconfig's server with its CA, client certificate or token, an absolute
 * timeout per call (connect to last byte), and retries with exponential backoff on the answers kube
 * retries (DefaultShouldRetry): a reset connection, 500, 504 and 429, or any answer with Retry-After.
 * Under a trace (tracing on), each call is a client span whose traceparent the webhook receives.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { startOutgoingHttpSpan } from '../observability/tracing/outgoing.js';
import type { WebhookTarget } from './kubeconfig.js';

/** The answer of a webhook call. */
export interface WebhookResponse {
  readonly status: number;
  readonly body: Buffer;
}

/** Retry policy (kube's DefaultRetryBackoff: 500 ms, factor 1.5, jitter 0.2, 5 steps). */
export interface Backoff {
  readonly initialMs: number;
  readonly factor: number;
  readonly jitter: number;
  /** How many calls at most (the first included). */
  readonly steps: number;
}

/** kube's default webhook retry backoff. */
export const defaultBackoff: Backoff = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };

/** kube's timeout for one webhook call, including reading the answer. */
export const defaultWebhookTimeoutMs = 30_000;

/** The larger answers are refused: a review is a few kilobytes. */
const maxResponseBytes = 16 * 1024 * 1024;

/** The reason kube's rest client gives an error answer without a Status body, by code. */
function reasonFor(status: number): string {
  if (status === 429) return 'TooManyRequests';
  if (status === 500) return 'InternalError';
  if (status === 503) return 'ServiceUnavailable';
  if (status === 504) return 'Timeout';
  return 'Unknown';
}

/** The message kube's rest client makes of an error answer without a Status body. */
function messageFor(status: number, body: string): string {
  switch (status) {
    case 400:
      return 'the server rejected our request for an unknown reason';
    case 401:
      return 'Unauthorized';
    case 403:
      return 'the server does not allow access to the requested resource';
    case 404:
      return 'the server could not find the requested resource';
    case 429:
      return 'the server has received too many requests and has asked us to try again later';
    case 500:
      return `an error on the server (${JSON.stringify(body.trim() === '' ? 'unknown' : body.trim().slice(0, 512))}) has prevented the request from succeeding`;
    case 503:
      return 'the server is currently unable to handle the request';
    case 504:
      return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    default:
      return `the server responded with the status code ${status} but did not return more information`;
  }
}

/** A call that got no answer within the client's timeout. */
export class WebhookTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookTimeoutError';
  }
}

/** A non-2xx answer from the webhook: its status, the reason and message kube would read from it. */
export class WebhookStatusError extends Error {
  /** The Status reason (from a metav1.Status body, else derived from the code). */
  readonly reason: string;
  /** Whether the answer carried Retry-After (or a Status with details.retryAfterSeconds). */
  readonly retryAfter: boolean;

  constructor(
    readonly status: number,
    readonly body: string,
    headers: IncomingHttpHeaders = {},
  ) {
    let reason = reasonFor(status);
    let message = messageFor(status, body);
    let retryAfter = headers['retry-after'] !== undefined && (status === 429 || status >= 500);
    try {
      const s = JSON.parse(body) as { kind?: unknown; reason?: unknown; message?: unknown; details?: { retryAfterSeconds?: unknown } };
      if (s && s.kind === 'Status') {
        if (typeof s.reason === 'string' && s.reason) reason = s.reason;
        if (typeof s.message === 'string' && s.message) message = s.message;
        if (typeof s.details?.retryAfterSeconds === 'number' && s.details.retryAfterSeconds > 0) retryAfter = true;
      }
    } catch {
      // Not a Status: the code's message stands.
    }
    super(message);
    this.name = 'WebhookStatusError';
    this.reason = reason;
    this.retryAfter = retryAfter;
  }
}

/** kube's DefaultShouldRetry: transient failures only; a refused connection or a 4xx fails at once. */
export function shouldRetry(err: unknown): boolean {
  if (err instanceof WebhookStatusError) {
    return err.retryAfter || ['InternalError', 'Timeout', 'ServerTimeout', 'TooManyRequests'].includes(err.reason);
  }
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === 'ECONNRESET';
}

/** A client for one webhook target. Safe to share; keeps connections alive. */
export class WebhookClient {
  private readonly url: URL;
  private readonly agent: HttpAgent | HttpsAgent;
  private readonly timeoutMs: number;

  constructor(
    private readonly target: WebhookTarget,
    private readonly options: { timeoutMs?: number; backoff?: Backoff; shouldRetry?: (err: unknown) => boolean } = {},
  ) {
    this.url = new URL(target.server);
    this.timeoutMs = options.timeoutMs ?? defaultWebhookTimeoutMs;
    this.agent =
      this.url.protocol === 'https:'
        ? new HttpsAgent({
            keepAlive: true,
            ...(target.ca ? { ca: target.ca } : {}),
            ...(target.clientCert && target.clientKey ? { cert: target.clientCert, key: target.clientKey } : {}),
            rejectUnauthorized: !target.insecureSkipTLSVerify,
            ...(target.tlsServerName ? { servername: target.tlsServerName } : {}),
          })
        : new HttpAgent({ keepAlive: true });
  }

  /**
   * POSTs body as JSON once; rejects on a connection error, on the timeout (connect to last byte)
   * or on a non-2xx status (WebhookStatusError).
   */
  postOnce(body: unknown): Promise<WebhookResponse> {
    const payload = Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json, */*',
      'Content-Length': String(payload.length),
    };
    if (this.target.token) headers.Authorization = `Bearer ${this.target.token}`;
    else if (this.target.username !== undefined) headers.Authorization = `Basic ${Buffer.from(`${this.target.username}:${this.target.password ?? ''}`).toString('base64')}`;
    const send = this.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const span = startOutgoingHttpSpan(this.url, 'POST', headers);
    return new Promise((resolve, reject) => {
      const req = send(this.url, { method: 'POST', headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxResponseBytes) req.destroy(new Error(`the answer of ${this.url.href} is larger than ${maxResponseBytes} bytes`));
          else chunks.push(c);
        });
        res.on('error', fail);
        res.on('end', () => {
          clearTimeout(timer);
          const status = res.statusCode ?? 0;
          span?.finish(status);
          const out = Buffer.concat(chunks);
          if (status < 200 || status > 299) reject(new WebhookStatusError(status, out.toString('utf8'), res.headers));
          else resolve({ status, body: out });
        });
      });
      const timer = setTimeout(() => req.destroy(new WebhookTimeoutError(`Post "${this.url.href}": context deadline exceeded (Client.Timeout exceeded after ${this.timeoutMs}ms)`)), this.timeoutMs);
      function fail(err: Error): void {
        clearTimeout(timer);
        span?.finish(undefined, err);
        reject(err);
      }
      req.on('error', fail);
      req.end(payload);
    });
  }

  /**
   * POSTs with retries (options.backoff, kube's default when absent) on the errors
   * options.shouldRetry accepts (kube's DefaultShouldRetry when absent); rejects with the last error.
   */
  async post(body: unknown): Promise<WebhookResponse> {
    const b = this.options.backoff ?? defaultBackoff;
    const retriable = this.options.shouldRetry ?? shouldRetry;
    const steps = Math.max(1, b.steps);
    let delay = b.initialMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.postOnce(body);
      } catch (err) {
        if (attempt >= steps || !retriable(err)) throw err;
        const jittered = delay * (1 + Math.random() * b.jitter);
        // Not unref'd: a call in progress keeps the process alive until it settles.
        await new Promise((r) => setTimeout(r, jittered));
        delay *= b.factor;
      }
    }
  }

  /** Closes kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}
