/**
 * The token webhook (--authentication-token-webhook-config-file): a token no local method knows is
 * sent to a remote service as a TokenReview, as kube's WebhookTokenAuthenticator does. Its answer
 * is cached for --authentication-token-webhook-cache-ttl (users and refusals alike; errors never).
 * An unreachable webhook, a non-2xx or malformed answer is an AuthenticationError (401), logged.
 */
import type { Logger } from '../../observability/logging.js';
import type { AuthenticationWebhookOptions, TokenWebhookVersion } from '../../server/options/authentication-webhook.js';
import { WebhookClient, type Backoff } from '../../webhook/client.js';
import { loadWebhookKubeconfig } from '../../webhook/kubeconfig.js';
import { intersectAudiences } from '../audience-agnostic.js';
import { AuthenticationError, type AuthenticationResult, type TokenAuthenticator } from '../interface.js';
import { CachedTokenAuthenticator } from '../token-cache.js';
import { parseTokenReview, tokenReviewRequest } from './token-review.js';

/** Asks a webhook about tokens (uncached; see newWebhookTokenAuthenticator). */
export class WebhookTokenAuthenticator implements TokenAuthenticator {
  constructor(
    private readonly client: WebhookClient,
    private readonly version: TokenWebhookVersion,
    /** The server's --api-audiences, read on every call. */
    private readonly apiAudiences: readonly string[],
    private readonly log: Logger,
  ) {}

  async authenticateToken(token: string, audiences: readonly string[]): Promise<AuthenticationResult | undefined> {
    // kube: an audience-limited review names the audiences; the answer must share one with them
    // (its own audiences, else the server's). An empty list means the server's default audiences.
    const wanted = audiences.length > 0 ? audiences : this.apiAudiences;
    let status;
    try {
      const res = await this.client.post(tokenReviewRequest(this.version, token, wanted));
      status = parseTokenReview(res.body);
    } catch (err) {
      const message = (err as Error).message;
      this.log.error(`Failed to make webhook authenticator request: ${message}`);
      throw new AuthenticationError(message);
    }
    let auds: string[] | undefined;
    if (wanted.length > 0) {
      auds = intersectAudiences(wanted, status.audiences.length > 0 ? status.audiences : this.apiAudiences);
      if (auds.length === 0) return undefined;
    }
    if (!status.authenticated) {
      if (status.error) throw new AuthenticationError(status.error);
      return undefined;
    }
    return { user: status.user ?? { name: '', groups: [] }, ...(auds ? { audiences: auds } : {}) };
  }
}

/** The built webhook authenticator and how to stop it. */
export interface BuiltWebhookToken {
  readonly authenticator: TokenAuthenticator;
  stop(): void;
}

/**
 * Loads the webhook's kubeconfig (throws with the file's name when it is invalid, so the server
 * does not start) and builds the cached authenticator. backoff is for tests.
 */
export async function newWebhookTokenAuthenticator(
  options: AuthenticationWebhookOptions,
  apiAudiences: readonly string[],
  log: Logger,
  backoff?: Backoff,
): Promise<BuiltWebhookToken> {
  const target = await loadWebhookKubeconfig(options.configFile);
  const client = new WebhookClient(target, backoff ? { backoff } : {});
  const webhook = new WebhookTokenAuthenticator(client, options.version, apiAudiences, log);
  const authenticator =
    options.cacheTTLMs > 0 ? new CachedTokenAuthenticator(webhook, { successTtlMs: options.cacheTTLMs, failureTtlMs: options.cacheTTLMs, cacheErrors: false, maxEntries: 8192 }) : webhook;
  return { authenticator, stop: () => client.close() };
}
