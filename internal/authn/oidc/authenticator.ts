/**
 * The OIDC token authenticator (--oidc-issuer-url and friends), as kube's: a JWT whose (unverified)
 * "iss" is another issuer gets no opinion, so service account and other tokens pass on; a token for
 * this issuer is verified (verify.ts) and mapped to a user (claims.ts), or refused with an
 * AuthenticationError (401). The issuer's discovery document is read in the background, again
 * every 10 s until it succeeds, so the server starts while the issuer is down (its tokens are
 * refused until then, "oidc: authenticator not initialized").
 */
import { readFile } from 'node:fs/promises';
import type { Logger } from '../../observability/logging.js';
import type { OIDCOptions } from '../../server/options/oidc.js';
import { AudienceAgnosticTokenAuthenticator } from '../audience-agnostic.js';
import { AuthenticationError, type AuthenticationResult, type MaybePromise, type TokenAuthenticator } from '../interface.js';
import { userFromClaims } from './claims.js';
import { fetchJSON } from './fetch.js';
import { RemoteKeySet } from './key-set.js';
import { checkClaims, checkSignature, decodeHeader, untrustedClaims } from './verify.js';

/** How often kube retries reading the discovery document until it succeeds. */
export const initRetryMs = 10_000;

/** go-oidc's exception: Google's tokens may name their issuer without the scheme. */
const googleIssuer = 'https://accounts.google.com';

/** The "iss" of a compact JWT, unverified; undefined when token is no JWT. Cheap: no signature work. */
export function untrustedIssuer(token: string): string | undefined {
  return issuerOf(untrustedClaims(token));
}

function issuerOf(claims: Record<string, unknown> | undefined): string | undefined {
  const iss = claims?.iss;
  if (typeof iss !== 'string') return undefined;
  return iss === 'accounts.google.com' ? googleIssuer : iss;
}

/** Verifies ID tokens of one issuer. Call start() once; stop() ends the background retries. */
export class OIDCAuthenticator implements TokenAuthenticator {
  private keySet: RemoteKeySet | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly options: OIDCOptions,
    private readonly ca: string | undefined,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the discovery document was read (tokens can be verified). */
  get initialized(): boolean {
    return this.keySet !== undefined;
  }

  /** Reads the discovery document now; on failure logs and tries again every 10 s. Resolves after the first attempt. */
  async start(): Promise<void> {
    if (this.stopped || this.keySet) return;
    try {
      await this.init();
    } catch (err) {
      this.log.error(`oidc authenticator: initializing plugin: ${(err as Error).message}`);
      if (!this.stopped) this.retry = setTimeout(() => void this.start(), this.options.initRetryMs ?? initRetryMs).unref();
    }
  }

  /** Ends the background retries; tokens already verifiable stay so. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }

  private async init(): Promise<void> {
    const issuer = this.options.issuerURL;
    const wellKnown = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const doc = (await fetchJSON(wellKnown, this.fetchOptions())) as { issuer?: unknown; jwks_uri?: unknown } | null;
    if (doc?.issuer !== issuer) throw new Error(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(issuer)} got ${JSON.stringify(doc?.issuer ?? '')}`);
    const jwksURI = doc.jwks_uri;
    if (typeof jwksURI !== 'string' || !/^https?:\/\//.test(jwksURI)) throw new Error(`oidc: discovery document of ${JSON.stringify(issuer)} has no valid jwks_uri`);
    const keySet = new RemoteKeySet(() => fetchJSON(jwksURI, this.fetchOptions()), this.options.keyRefreshMinIntervalMs ?? 10_000, this.now);
    this.keySet = keySet;
    this.log.info(`oidc authenticator: initialized for issuer ${issuer}`);
    // Warm the cache; a failure here is retried by the first token that needs a key.
    keySet.refresh().catch((err: unknown) => this.log.error(`oidc authenticator: fetching keys of ${issuer}: ${(err as Error).message}`));
  }

  private fetchOptions(): { ca?: string } {
    return this.ca ? { ca: this.ca } : {};
  }

  authenticateToken(token: string, _audiences: readonly string[]): MaybePromise<AuthenticationResult | undefined> {
    // The claims are parsed once, here; the signature is checked before any of them is trusted.
    const payload = untrustedClaims(token);
    if (issuerOf(payload) !== this.options.issuerURL || !payload) return undefined;
    const keySet = this.keySet;
    if (!keySet) throw new AuthenticationError('oidc: authenticator not initialized');
    const decoded = { header: decodeHeader(token), payload };
    checkClaims(payload, this.options.clientID, this.now());
    const signed = checkSignature(token, decoded, this.options.signingAlgs, keySet);
    const finish = (): AuthenticationResult => ({ user: userFromClaims(decoded.payload, this.options) });
    return signed instanceof Promise ? signed.then(finish) : finish();
  }
}

/** The built OIDC authenticator and how to stop it. */
export interface BuiltOIDC {
  /** Audience-agnostic (good for the server's --api-audiences only), as kube wraps it. */
  readonly authenticator: TokenAuthenticator;
  readonly oidc: OIDCAuthenticator;
  stop(): void;
}

/**
 * Builds and starts the OIDC authenticator: reads --oidc-ca-file now (a missing or empty file stops
 * the server from starting, as in kube) and the issuer in the background.
 */
export async function newOIDCAuthenticator(options: OIDCOptions, apiAudiences: readonly string[], log: Logger): Promise<BuiltOIDC> {
  let ca: string | undefined;
  if (options.caFile) {
    ca = await readFile(options.caFile, 'utf8');
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`Failed to read the CA contents: data does not contain any valid RSA or ECDSA certificates (--oidc-ca-file ${options.caFile})`);
  } else {
    log.info("OIDC: No x509 certificates provided, will use host's root CA set");
  }
  const oidc = new OIDCAuthenticator(options, ca, log);
  void oidc.start();
  return { authenticator: new AudienceAgnosticTokenAuthenticator(oidc, apiAudiences), oidc, stop: () => oidc.stop() };
}
