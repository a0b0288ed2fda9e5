/**
 * The service account token flags (kube-apiserver's ServiceAccountAuthenticationOptions, its
 * --service-account-signing-key-file and --api-audiences): who issues tokens, which keys verify
 * them, how long they may live. The keys are read at start by internal/serviceaccount/config.ts.
 *
 * kube-apiserver refuses to start without --service-account-issuer and
 * --service-account-signing-key-file; Capstan runs without service account tokens when none of
 * these flags is given (no token subresource, no token authenticators, no discovery documents),
 * and applies kube's rules as soon as one of them is.
 */
import { boolFlag, durationFlag, FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated service account token options. */
export interface ServiceAccountOptions {
  /** --service-account-issuer: the first signs ("iss" of issued tokens); every one is accepted. */
  readonly issuers: readonly string[];
  /** --service-account-key-file: PEM files of verification keys; empty means the serving key (--tls-private-key-file). */
  readonly keyFiles: readonly string[];
  /** --service-account-signing-key-file: the PEM private key tokens are signed with. */
  readonly signingKeyFile: string;
  /** --service-account-lookup: legacy (Secret-based) tokens are checked against etcd. */
  readonly lookup: boolean;
  /** --service-account-max-token-expiration in seconds; 0 means no maximum. */
  readonly maxExpirationSeconds: number;
  /** --service-account-extend-token-expiration: pod-bound tokens asked for 3607 s live a year (warnafter). */
  readonly extendExpiration: boolean;
  /** --api-audiences, or the issuers when unset (kube's default). */
  readonly apiAudiences: readonly string[];
  /** --service-account-jwks-uri: jwks_uri of the discovery document; unset derives it from the external address. */
  readonly jwksUri?: string;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    /** Absent: no service account flag was given and service account tokens are off. */
    readonly serviceAccount?: ServiceAccountOptions;
  }
}

/** kube's bounds of --service-account-max-token-expiration, in seconds. */
export const maxTokenExpirationBounds = { min: 3600, max: 2 ** 32 } as const;

const flagNames = [
  'service-account-issuer',
  'service-account-key-file',
  'service-account-signing-key-file',
  'service-account-lookup',
  'service-account-max-token-expiration',
  'service-account-extend-token-expiration',
  'api-audiences',
  'service-account-jwks-uri',
] as const;

function strings(v: unknown): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

/**
 * Go's url.Parse failures for the inputs an operator can plausibly type (control characters, a
 * colon in a scheme-less first segment, a bad host); undefined when Go would parse it.
 */
export function goUrlParseError(raw: string): string | undefined {
  const q = JSON.stringify(raw);
  if (/[\x00-\x1f\x7f]/.test(raw)) return `parse ${q}: net/url: invalid control character in URL`;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(raw);
  if (!scheme) {
    if (raw.startsWith(':')) return `parse ${q}: missing protocol scheme`;
    const colon = raw.indexOf(':');
    const slash = raw.indexOf('/');
    if (colon >= 0 && (slash < 0 || colon < slash)) return `parse ${q}: first path segment in URL cannot contain colon`;
    return undefined;
  }
  if (raw.slice(scheme[0].length).startsWith('//')) {
    try {
      new URL(raw);
    } catch {
      return `parse ${q}: invalid URL`;
    }
  }
  return undefined;
}

function validateIssuers(issuers: readonly string[]): void {
  const seen = new Set<string>();
  for (const issuer of issuers) {
    if (issuer.includes(':')) {
      const err = goUrlParseError(issuer);
      if (err) throw new FlagError(`service-account-issuer ${JSON.stringify(issuer)} contained a ':' but was not a valid URL: ${err}`);
    }
    if (issuer === '') throw new FlagError('service-account-issuer should not be an empty string');
    if (seen.has(issuer)) throw new FlagError(`service-account-issuer ${JSON.stringify(issuer)} is already specified`);
    seen.add(issuer);
  }
}

function validateJwksUri(uri: string): void {
  const err = goUrlParseError(uri);
  if (err) throw new FlagError(`service-account-jwks-uri must be a valid URL: ${err}`);
  if (!/^https:/i.test(uri)) throw new FlagError(`service-account-jwks-uri requires https scheme, parsed as: ${uri}`);
}

/** The service account flag group. */
export const serviceAccountFlags: FlagGroup<'serviceAccount'> = {
  register(y) {
    y.option('service-account-issuer', {
      type: 'string',
      array: true,
      nargs: 1,
      describe:
        'Identifier of the service account token issuer. The issuer will assert this identifier in "iss" claim of issued tokens. This value is a string or URI. If this option is not a valid URI per the OpenID Discovery 1.0 spec, the ServiceAccountIssuerDiscovery feature will remain disabled. It is highly recommended that this value comply with the OpenID spec: https://openid.net/specs/openid-connect-discovery-1_0.html. In practice, this means that service-account-issuer must be an https URL. When this flag is specified multiple times, the first is used to generate tokens and all are used to determine which issuers are accepted.',
    });
    y.option('service-account-key-file', {
      type: 'string',
      array: true,
      nargs: 1,
      describe:
        'File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. The specified file can contain multiple keys, and the flag can be specified multiple times with different files. If unspecified, --tls-private-key-file is used. Must be specified when --service-account-signing-key-file is provided',
    });
    y.option('service-account-signing-key-file', {
      type: 'string',
      describe: 'Path to the file that contains the current private key of the service account token issuer. The issuer will sign issued ID tokens with this private key.',
    });
    y.option('service-account-lookup', { type: 'string', defaultDescription: 'true', describe: 'If true, validate ServiceAccount tokens exist in etcd as part of authentication.' });
    y.option('service-account-max-token-expiration', {
      type: 'string',
      describe:
        'The maximum validity duration of a token created by the service account token issuer. If an otherwise valid TokenRequest with a validity duration larger than this value is requested, a token will be issued with a validity duration of this value.',
    });
    y.option('service-account-extend-token-expiration', {
      type: 'string',
      defaultDescription: 'true',
      describe:
        'Turns on projected service account expiration extension during token generation, which helps safe transition from legacy token to bound service account token feature. If this flag is enabled, admission injected tokens would be extended up to 1 year to prevent unexpected failure during transition, ignoring value of service-account-max-token-expiration.',
    });
    y.option('api-audiences', {
      type: 'string',
      array: true,
      nargs: 1,
      describe:
        'Identifiers of the API. The service account token authenticator will validate that tokens used against the API are bound to at least one of these audiences. If the --service-account-issuer flag is configured and this flag is not, this field defaults to a single element list containing the issuer URL.',
    });
    y.option('service-account-jwks-uri', {
      type: 'string',
      describe:
        "Overrides the URI for the JSON Web Key Set in the discovery doc served at /.well-known/openid-configuration. This flag is useful if the discovery doc and key set are served to relying parties from a URL other than the API server's external (as auto-detected or overridden with external-hostname).",
    });
  },
  validate(p) {
    if (!flagNames.some((n) => p[n] !== undefined)) return {};
    const issuers = strings(p['service-account-issuer']);
    const keyFiles = strings(p['service-account-key-file']);
    const signingKeyFile = p['service-account-signing-key-file'] === undefined ? '' : String(p['service-account-signing-key-file']);
    const audiencesFlag = strings(p['api-audiences'])
      .flatMap((a) => a.split(','))
      .map((a) => a.trim())
      .filter((a) => a.length > 0);
    const lookup = boolFlag('service-account-lookup', p['service-account-lookup'], true);
    const extendExpiration =
      boolFlag('service-account-extend-token-expiration', p['service-account-extend-token-expiration'], true);
    const maxMs = p['service-account-max-token-expiration'] === undefined ? 0 : durationFlag('service-account-max-token-expiration', p['service-account-max-token-expiration']);

    validateIssuers(issuers);
    if (issuers.length === 0) throw new FlagError('service-account-issuer is a required flag');
    const jwksUri = p['service-account-jwks-uri'] === undefined ? undefined : String(p['service-account-jwks-uri']);
    if (jwksUri) validateJwksUri(jwksUri);
    // kube's validateTokenRequest: the token issuer needs both a signing key and an issuer.
    if (!signingKeyFile) throw new FlagError('--service-account-signing-key-file, --service-account-issuer, and --api-audiences should be specified together');
    if (maxMs !== 0 && (maxMs < maxTokenExpirationBounds.min * 1000 || maxMs > maxTokenExpirationBounds.max * 1000)) {
      throw new FlagError('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
    }
    return {
      serviceAccount: {
        issuers,
        keyFiles,
        signingKeyFile,
        lookup,
        maxExpirationSeconds: Math.floor(maxMs / 1000),
        extendExpiration,
        apiAudiences: audiencesFlag.length > 0 ? audiencesFlag : issuers,
        ...(jwksUri ? { jwksUri } : {}),
      },
    };
  },
};
