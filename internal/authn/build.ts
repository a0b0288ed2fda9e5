/**
 * Builds the server's authenticator from the authentication options, in kube's order: the request
 * authenticators (front proxy, client certificates), then one bearer-token union (static tokens,
 * service account tokens, bootstrap tokens, OIDC, the token webhook: local methods first, so a
 * token never reaches a remote authenticator when a local one knows it) behind kube's token cache;
 * system:authenticated is added to every user they name; anonymous last, when on.
 */
import { defaultFeatureGates } from '../features/gates.js';
import type { Logger } from '../observability/logging.js';
import type { ServerMetrics } from '../observability/metrics.js';
import type { RestStorage } from '../registry/interface.js';
import { defaultAuthenticationOptions, type AuthenticationOptions } from '../server/options/authentication.js';
import type { FlagGroupOptions } from '../server/options/groups.js';
import type { ServiceAccountTokenConfig } from '../serviceaccount/config.js';
import { WithAnonymous } from './anonymous.js';
import { AudienceAgnosticTokenAuthenticator } from './audience-agnostic.js';
import { AuthenticatedGroupAdder } from './authenticated-group.js';
import { BearerTokenAuthenticator } from './bearer-token.js';
import { BootstrapTokenAuthenticator } from './bootstrap-token.js';
import { CABundle } from './ca-bundle.js';
import type { Authenticator, TokenAuthenticator } from './interface.js';
import { newOIDCAuthenticator } from './oidc/authenticator.js';
import { RequestHeaderAuthenticator } from './request-header.js';
import { serviceAccountTokenAuthenticators } from './service-account/authenticators.js';
import { CachedTokenAuthenticator } from './token-cache.js';
import { StaticTokenAuthenticator } from './token-file.js';
import { UnionAuthenticator, UnionTokenAuthenticator } from './union.js';
import { newWebhookTokenAuthenticator } from './webhook-token/authenticator.js';
import { WebSocketProtocolAuthenticator } from './websocket-protocol.js';
import { X509Authenticator } from './x509.js';

/** What authenticators may use of the running server. */
export interface AuthenticationDeps {
  /** The storage of a served resource (stored form), e.g. ('', 'secrets'); undefined when not served. */
  readonly storageOf: (group: string, resource: string, subresource?: string) => RestStorage | undefined;
  readonly log: Logger;
  readonly metrics?: ServerMetrics;
  /** Service account token issuing and verification (absent: no service account flags were given). */
  readonly serviceAccountTokens?: ServiceAccountTokenConfig;
}

/** The built authenticators. */
export interface BuiltAuthentication {
  /** The request authenticator the authentication filter asks. */
  readonly authenticator: Authenticator;
  /** Every token method as one, behind the token cache (TokenReview asks it). */
  readonly tokenAuthenticator: TokenAuthenticator;
  /**
   * The CA bundles (PEM) the TLS server asks clients for certificates with (--client-ca-file and
   * --requestheader-client-ca-file); empty when no method uses client certificates. The TLS layer
   * never rejects a connection for its certificate: the authenticators judge it (401).
   */
  clientCAs(): readonly string[];
  /**
   * Calls listener when clientCAs() changed (a CA file was replaced): the TLS server re-reads it.
   * Optional so that stand-ins in tests need not implement it.
   */
  onClientCAsChange?(listener: () => void): void;
  /** The server's --api-audiences (the default audiences of a token review). */
  readonly apiAudiences: readonly string[];
  /** Stops file watchers, caches and informers. */
  stop(): void;
}

/**
 * Builds the authenticators for options (undefined: every flag's default); methods carries the
 * flag groups of the methods that have their own (oidc, authenticationWebhook; absent: off).
 * Throws, with kube's message, when a configured file cannot be read or is invalid: the server
 * must not start.
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
  const bundles: CABundle[] = [];
  const stops: Array<() => void> = [];
  const fail = (err: unknown): never => {
    throw new Error(`invalid authentication config: ${(err as Error).message}`);
  };

  // 1. The front proxy: its certificate is verified before its headers are believed.
  if (opts.requestHeader) {
    const bundle = await CABundle.fromFile('request-header', opts.requestHeader.clientCAFile, deps.log).catch(fail);
    bundles.push(bundle);
    requestAuthenticators.push(new RequestHeaderAuthenticator(bundle, opts.requestHeader));
  }

  // 2. Client certificates.
  if (opts.clientCAFile) {
    const bundle = await CABundle.fromFile('client-ca-bundle', opts.clientCAFile, deps.log).catch(fail);
    bundles.push(bundle);
    requestAuthenticators.push(new X509Authenticator(bundle, (methods.featureGates ?? defaultFeatureGates).enabled('AllowParsingUserUIDFromCertAuth')));
  }

  // 3. Bearer tokens, local methods first.
  // 3a. Static tokens.
  if (opts.tokenAuthFile) {
    const tokens = await StaticTokenAuthenticator.fromFile(opts.tokenAuthFile, deps.log).catch(fail);
    tokenAuthenticators.push(new AudienceAgnosticTokenAuthenticator(tokens, apiAudiences));
  }
  // 3b. Service account tokens: legacy Secret-based, then bound tokens (--api-audiences is theirs).
  if (deps.serviceAccountTokens) {
    tokenAuthenticators.push(...serviceAccountTokenAuthenticators(deps.serviceAccountTokens, deps));
    apiAudiences.push(...deps.serviceAccountTokens.apiAudiences);
  }
  // 3c. Bootstrap tokens.
  if (opts.bootstrapTokenAuth) {
    const secrets = deps.storageOf('', 'secrets');
    if (!secrets) fail(new Error('--enable-bootstrap-token-auth needs the secrets resource, which is not served'));
    const { authenticator, informer } = BootstrapTokenAuthenticator.withInformer(secrets as RestStorage, deps.log);
    informer.start();
    stops.push(() => informer.stop());
    tokenAuthenticators.push(new AudienceAgnosticTokenAuthenticator(authenticator, apiAudiences));
  }
  // 3d. OIDC.
  if (methods.oidc) {
    const oidc = await newOIDCAuthenticator(methods.oidc, apiAudiences, deps.log);
    tokenAuthenticators.push(oidc.authenticator);
    stops.push(oidc.stop);
  }
  // 3e. The token webhook, last: only tokens no local method knows leave the server.
  if (methods.authenticationWebhook) {
    const webhook = await newWebhookTokenAuthenticator(methods.authenticationWebhook, apiAudiences, deps.log);
    tokenAuthenticators.push(webhook.authenticator);
    stops.push(webhook.stop);
  }

  // One union of the token methods behind kube's success cache, read from the Authorization
  // header and from a WebSocket subprotocol.
  const tokenAuthenticator = new CachedTokenAuthenticator(new UnionTokenAuthenticator(tokenAuthenticators));
  if (tokenAuthenticators.length > 0) {
    requestAuthenticators.push(new BearerTokenAuthenticator(tokenAuthenticator, apiAudiences));
    requestAuthenticators.push(new WebSocketProtocolAuthenticator(tokenAuthenticator, apiAudiences));
  }

  let authenticator: Authenticator = new AuthenticatedGroupAdder(new UnionAuthenticator(requestAuthenticators));
  if (opts.anonymous) authenticator = new WithAnonymous(authenticator);
  for (const b of bundles) {
    b.start();
    stops.push(() => b.stop());
  }
  return {
    authenticator,
    tokenAuthenticator,
    clientCAs: () => bundles.map((b) => b.pem),
    onClientCAsChange: (listener) => {
      for (const b of bundles) b.onChange(listener);
    },
    apiAudiences,
    stop: () => {
      for (const s of stops) s();
    },
  };
}
