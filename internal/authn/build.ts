/**
 * Builds the server's authenticator from the authentication options, in kube's order: the request
 * authenticators (front proxy, client certificates), then one bearer-token union (static tokens,
 * service account tokens, bootstrap tokens, OIDC, the token webhook: local methods first, so a
 * token never reaches a remote authenticator when a local one knows it); system:authenticated is
 * added to every user they name; anonymous last, when on.
 */
import type { Logger } from '../observability/logging.js';
import type { ServerMetrics } from '../observability/metrics.js';
import type { RestStorage } from '../registry/interface.js';
import { defaultAuthenticationOptions, type AuthenticationOptions } from '../server/options/authentication.js';
import type { FlagGroupOptions } from '../server/options/groups.js';
import type { ServiceAccountTokenConfig } from '../serviceaccount/config.js';
import { WithAnonymous } from './anonymous.js';
import { AuthenticatedGroupAdder } from './authenticated-group.js';
import { BearerTokenAuthenticator } from './bearer-token.js';
import type { Authenticator, TokenAuthenticator } from './interface.js';
import { newOIDCAuthenticator } from './oidc/authenticator.js';
import { serviceAccountTokenAuthenticators } from './service-account/authenticators.js';
import { UnionAuthenticator, UnionTokenAuthenticator } from './union.js';
import { newWebhookTokenAuthenticator } from './webhook-token/authenticator.js';

/** What authenticators may use of the running server. */
export interface AuthenticationDeps {
  /** The storage of a served resource (stored form), e.g. ('', 'secrets'); undefined when not served. */
  readonly storageOf: (group: string, resource: string, subresource?: string) => RestStorage | undefined;
  readonly log: Logger;
  readonly metrics?: ServerMetrics;
  /**
   * Token methods supplied in-process, asked after the configured ones (tests, embedders). No flag
   * sets them: a server started from the command line has none.
   */
  readonly extraTokenAuthenticators?: readonly TokenAuthenticator[];
  /** Service account token issuing and verification (absent: no service account flags were given). */
  readonly serviceAccountTokens?: ServiceAccountTokenConfig;
}

/** The built authenticators. */
export interface BuiltAuthentication {
  /** The request authenticator the authentication filter asks. */
  readonly authenticator: Authenticator;
  /** Every token method as one (TokenReview asks it). */
  readonly tokenAuthenticator: TokenAuthenticator;
  /**
   * The CA bundles (PEM) the TLS server asks clients for certificates with (--client-ca-file and
   * --requestheader-client-ca-file); empty when no method uses client certificates. The TLS layer
   * never rejects a connection for its certificate: the authenticators judge it (401).
   */
  clientCAs(): readonly string[];
  /** The server's --api-audiences (the default audiences of a token review). */
  readonly apiAudiences: readonly string[];
  /** Stops file watchers, caches and informers. */
  stop(): void;
}

/**
 * Builds the authenticators for options (undefined: every flag's default). methods carries the
 * flag groups of the methods that have their own (oidc, authenticationWebhook); absent: off.
 */
export async function buildAuthentication(
  options: AuthenticationOptions | undefined,
  deps: AuthenticationDeps,
  methods: FlagGroupOptions = {},
): Promise<BuiltAuthentication> {
  const opts = options ?? defaultAuthenticationOptions;
  const apiAudiences: string[] = [];
  const requestAuthenticators: Authenticator[] = [];
  const tokenAuthenticators: TokenAuthenticator[] = [];
  const stops: Array<() => void> = [];

  // Service account tokens: legacy Secret-based tokens, then bound tokens (--api-audiences is theirs).
  if (deps.serviceAccountTokens) {
    tokenAuthenticators.push(...serviceAccountTokenAuthenticators(deps.serviceAccountTokens, deps));
    apiAudiences.push(...deps.serviceAccountTokens.apiAudiences);
  }
  tokenAuthenticators.push(...(deps.extraTokenAuthenticators ?? []));
  // OIDC: after the local token methods, before the webhook.
  if (methods.oidc) {
    const oidc = await newOIDCAuthenticator(methods.oidc, apiAudiences, deps.log);
    tokenAuthenticators.push(oidc.authenticator);
    stops.push(oidc.stop);
  }
  // The token webhook, last: only tokens no local method knows leave the server.
  if (methods.authenticationWebhook) {
    const webhook = await newWebhookTokenAuthenticator(methods.authenticationWebhook, apiAudiences, deps.log);
    tokenAuthenticators.push(webhook.authenticator);
    stops.push(webhook.stop);
  }

  const tokenAuthenticator = new UnionTokenAuthenticator(tokenAuthenticators);
  if (tokenAuthenticators.length > 0) requestAuthenticators.push(new BearerTokenAuthenticator(tokenAuthenticator, apiAudiences));
  let authenticator: Authenticator = new AuthenticatedGroupAdder(new UnionAuthenticator(requestAuthenticators));
  if (opts.anonymous) authenticator = new WithAnonymous(authenticator);
  return {
    authenticator,
    tokenAuthenticator,
    clientCAs: () => [],
    apiAudiences,
    stop: () => {
      for (const s of stops) s();
    },
  };
}
