/**
 * A JSON-over-HTTPS client for one webhook (kube's rest client behind GenericWebhook): POSTs a
 * review object to the kubeconfig's server with its CA, client certificate or token, a timeout per
 * call, and retries with exponential backoff on connection errors, 5xx and 429 answers.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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
  readonly steps: number;
}

/** kube's default webhook retry backoff. */
export const defaultBackoff: Backoff = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };

/** An HTTP error status from the webhook, kept for callers that report it. */
export class WebhookStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`the server responded with the status code ${status} but did not return more information`);
    this.name = 'WebhookStatusError';
  }
}

/** A call that got no answer within the client's timeout. */
export class WebhookTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookTimeoutError';
  }
}

function retriable(err: unknown): boolean {
  if (err instanceof WebhookStatusError) return err.status >= 500 || err.status === 429;
  return true;
}

/** A client for one webhook target. Safe to share; keeps connections alive. */
export class WebhookClient {
  private readonly url: URL;
  private readonly agent: HttpAgent | HttpsAgent;

  constructor(
    private readonly target: WebhookTarget,
    private readonly options: { timeoutMs: number; backoff?: Backoff },
  ) {
    this.url = new URL(target.server);
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

  /** POSTs body as JSON once; rejects on a connection error, a timeout or a non-2xx status (WebhookStatusError). */
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
    return new Promise((resolve, reject) => {
      const req = send(this.url, { method: 'POST', headers, agent: this.agent, timeout: this.options.timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const out = Buffer.concat(chunks);
          if (status < 200 || status > 299) reject(new WebhookStatusError(status, out.toString('utf8')));
          else resolve({ status, body: out });
        });
      });
      req.on('timeout', () => req.destroy(new WebhookTimeoutError(`timeout after ${this.options.timeoutMs}ms calling ${this.url.href}`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** POSTs with retries (options.backoff, kube's default when absent); rejects with the last error. */
  async post(body: unknown): Promise<WebhookResponse> {
    const b = this.options.backoff ?? defaultBackoff;
    let delay = b.initialMs;
    let lastErr: unknown;
    for (let attempt = 0; attempt < Math.max(1, b.steps); attempt++) {
      try {
        return await this.postOnce(body);
      } catch (err) {
        lastErr = err;
        if (!retriable(err) || attempt === b.steps - 1) break;
        const jittered = delay * (1 + Math.random() * b.jitter);
        await new Promise((r) => setTimeout(r, jittered).unref());
        delay *= b.factor;
      }
    }
    throw lastErr;
  }

  /** Closes kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}
