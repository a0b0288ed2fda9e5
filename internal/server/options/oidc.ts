/**
 * The OIDC flags (kube-apiserver's OIDCAuthenticationOptions): one OpenID Connect issuer whose ID
 * tokens are accepted as bearer tokens. Validated as kube validates them (both --oidc-issuer-url
 * and --oidc-client-id once any --oidc-* flag is set, https only, known signing algorithms), with
 * the username prefix already defaulted; the authenticator is internal/authn/oidc.
 */
import { FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** The JOSE algorithms kube accepts for --oidc-signing-algs (asymmetric only). */
export const oidcSigningAlgorithms = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'] as const;

/** One allowed signing algorithm. */
export type OIDCSigningAlgorithm = (typeof oidcSigningAlgorithms)[number];

/** Validated OIDC options; present only when the issuer is configured. */
export interface OIDCOptions {
  /** --oidc-issuer-url: the issuer, exactly as tokens carry it in "iss" (https). */
  readonly issuerURL: string;
  /** --oidc-client-id: the audience tokens must be issued to. */
  readonly clientID: string;
  /** --oidc-ca-file: CA bundle for the issuer's HTTPS server (else the host's roots). */
  readonly caFile?: string;
  /** --oidc-username-claim. */
  readonly usernameClaim: string;
  /** The prefix every username gets, after kube's defaulting ("" for none). */
  readonly usernamePrefix: string;
  /** --oidc-groups-claim: a string or array-of-strings claim; absent: no groups. */
  readonly groupsClaim?: string;
  /** --oidc-groups-prefix. */
  readonly groupsPrefix: string;
  /** --oidc-required-claim: claims that must be present with these (string) values. */
  readonly requiredClaims: ReadonlyMap<string, string>;
  /** --oidc-signing-algs. */
  readonly signingAlgs: readonly OIDCSigningAlgorithm[];
  /**
   * Not a flag: the least time between two key set fetches triggered by tokens naming an unknown
   * key id (tests shorten it). Default 10 s.
   */
  readonly keyRefreshMinIntervalMs?: number;
  /** Not a flag: how often the discovery document is tried until it is read (tests shorten it). Default 10 s. */
  readonly initRetryMs?: number;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly oidc?: OIDCOptions;
  }
}

const flagNames = ['oidc-issuer-url', 'oidc-client-id', 'oidc-ca-file', 'oidc-username-claim', 'oidc-username-prefix', 'oidc-groups-claim', 'oidc-groups-prefix', 'oidc-required-claim', 'oidc-signing-algs'];

/** Every value a repeatable string flag was given, in order (yargs may hand a string or a list). */
function values(v: unknown): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => String(x));
}

/** The issuer URL checks of kube's JWT authenticator validation, with its field path. */
function validateIssuerURL(raw: string): void {
  const bad = (why: string): never => {
    throw new FlagError(`jwt[0].issuer.url: Invalid value: ${JSON.stringify(raw)}: ${why}`);
  };
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return bad('URL scheme must be https');
  }
  if (u.protocol !== 'https:') bad('URL scheme must be https');
  if (u.username || u.password) bad('URL must not contain a username or password');
  if (u.search || raw.includes('?')) bad('URL must not contain a query');
  if (u.hash || raw.includes('#')) bad('URL must not contain a fragment');
}

function requiredClaims(v: unknown): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of values(v)) {
    const eq = pair.indexOf('=');
    if (eq < 0) throw new FlagError(`invalid argument ${JSON.stringify(pair)} for "--oidc-required-claim" flag: malformed pair, expect string=string`);
    const claim = pair.slice(0, eq).trim();
    if (claim === '') throw new FlagError(`jwt[0].claimValidationRules[${out.size}].claim: Required value: claim or expression is required`);
    out.set(claim, pair.slice(eq + 1));
  }
  return out;
}

function signingAlgs(v: unknown): OIDCSigningAlgorithm[] {
  const given = values(v).flatMap((s) => s.split(',').map((a) => a.trim()).filter((a) => a.length > 0));
  // kube's authenticator falls back to RS256 when the list is empty.
  if (given.length === 0) return ['RS256'];
  for (const alg of given) {
    if (!(oidcSigningAlgorithms as readonly string[]).includes(alg)) throw new FlagError(`oidc: unsupported signing alg: ${JSON.stringify(alg)}`);
  }
  return given as OIDCSigningAlgorithm[];
}

/** The OIDC flag group. */
export const oidcFlags: FlagGroup<'oidc'> = {
  repeatable: ['oidc-required-claim', 'oidc-signing-algs'],
  register(y) {
    y.option('oidc-issuer-url', {
      type: 'string',
      describe: "The URL of the OpenID issuer, only HTTPS scheme will be accepted. If set, it will be used to verify the OIDC JSON Web Token (JWT).",
    });
    y.option('oidc-client-id', { type: 'string', describe: 'The client ID for the OpenID Connect client, must be set if oidc-issuer-url is set.' });
    y.option('oidc-ca-file', {
      type: 'string',
      describe: "If set, the OpenID server's certificate will be verified by one of the authorities in the oidc-ca-file, otherwise the host's root CA set will be used.",
    });
    y.option('oidc-username-claim', {
      type: 'string',
      defaultDescription: 'sub',
      describe:
        "The OpenID claim to use as the user name. Note that claims other than the default ('sub') is not guaranteed to be unique and immutable. This flag is experimental, please see the authentication documentation for further details.",
    });
    y.option('oidc-username-prefix', {
      type: 'string',
      describe:
        "If provided, all usernames will be prefixed with this value. If not provided, username claims other than 'email' are prefixed by the issuer URL to avoid clashes. To skip any prefixing, provide the value '-'.",
    });
    y.option('oidc-groups-claim', {
      type: 'string',
      describe:
        'If provided, the name of a custom OpenID Connect claim for specifying user groups. The claim value is expected to be a string or array of strings. This flag is experimental, please see the authentication documentation for further details.',
    });
    y.option('oidc-groups-prefix', { type: 'string', describe: 'If provided, all groups will be prefixed with this value to prevent conflicts with other authentication strategies.' });
    y.option('oidc-required-claim', {
      type: 'string',
      requiresArg: true,
      describe:
        'A key=value pair that describes a required claim in the ID Token. If set, the claim is verified to be present in the ID Token with a matching value. Repeat this flag to specify multiple claims.',
    });
    y.option('oidc-signing-algs', {
      type: 'string',
      requiresArg: true,
      defaultDescription: '[RS256]',
      describe: `Comma-separated list of allowed JOSE asymmetric signing algorithms. JWTs with a supported 'alg' header values are: ${oidcSigningAlgorithms.join(', ')}. Values are defined by RFC 7518 https://tools.ietf.org/html/rfc7518#section-3.1.`,
    });
  },
  validate(p) {
    if (!flagNames.some((n) => p[n] !== undefined)) return {};
    const issuerURL = p['oidc-issuer-url'] === undefined ? '' : String(p['oidc-issuer-url']);
    const clientID = p['oidc-client-id'] === undefined ? '' : String(p['oidc-client-id']);
    if (issuerURL === '' || clientID === '') throw new FlagError('oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set');
    validateIssuerURL(issuerURL);
    const usernameClaim = p['oidc-username-claim'] === undefined ? 'sub' : String(p['oidc-username-claim']);
    if (usernameClaim === '') throw new FlagError('jwt[0].claimMappings.username: Required value: claim or expression is required');
    const prefixFlag = p['oidc-username-prefix'] === undefined ? '' : String(p['oidc-username-prefix']);
    // kube's legacy defaulting: claims other than email are prefixed with the issuer, "-" means none.
    const usernamePrefix = prefixFlag === '-' ? '' : prefixFlag === '' && usernameClaim !== 'email' ? `${issuerURL}#` : prefixFlag;
    const caFile = p['oidc-ca-file'] === undefined || p['oidc-ca-file'] === '' ? undefined : String(p['oidc-ca-file']);
    const groupsClaim = p['oidc-groups-claim'] === undefined || p['oidc-groups-claim'] === '' ? undefined : String(p['oidc-groups-claim']);
    return {
      oidc: {
        issuerURL,
        clientID,
        ...(caFile ? { caFile } : {}),
        usernameClaim,
        usernamePrefix,
        ...(groupsClaim ? { groupsClaim } : {}),
        groupsPrefix: p['oidc-groups-prefix'] === undefined ? '' : String(p['oidc-groups-prefix']),
        requiredClaims: requiredClaims(p['oidc-required-claim']),
        signingAlgs: signingAlgs(p['oidc-signing-algs']),
      },
    };
  },
};
