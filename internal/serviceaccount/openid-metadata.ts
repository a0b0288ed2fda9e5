/**
 * Service account issuer discovery documents (kube's openidmetadata.go): the OpenID provider
 * configuration at /.well-known/openid-configuration and the JSON Web Key Set at /openid/v1/jwks,
 * rendered once. They are only built for an https issuer without query or fragment (kube's extra
 * checks, which leave the endpoints off rather than stop the server).
 */
import type { PublicKeyEntry } from './keys.js';
import { goUrlParseError } from '../server/options/service-account.js';

/** Where the discovery document is served. */
export const openIdConfigPath = '/.well-known/openid-configuration';
/** Where the key set is served. */
export const jwksPath = '/openid/v1/jwks';

/** The two pre-rendered documents. */
export interface OpenIdMetadata {
  readonly configJson: string;
  readonly keysetJson: string;
}

/** One JWK as go-jose writes a public key: use, kty, kid, crv, alg, x, y, n, e. */
export function publicJwk(entry: PublicKeyEntry): Record<string, string> {
  const jwk = entry.key.export({ format: 'jwk' }) as Record<string, string>;
  const out: Record<string, string> = { use: 'sig', kty: jwk.kty as string, kid: entry.kid };
  if (jwk.crv) out.crv = jwk.crv;
  out.alg = entry.alg;
  for (const k of ['x', 'y', 'n', 'e']) if (jwk[k] !== undefined) out[k] = jwk[k] as string;
  return out;
}

/** The host:port form of an address (IPv6 literals bracketed), as Go's net.JoinHostPort writes it. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

function schemeOf(url: string): string {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  return m ? (m[1] as string).toLowerCase() : '';
}

/**
 * Builds the documents for issuerUrl with keys; jwksUri defaults to https://<externalAddress>/openid/v1/jwks.
 * Throws kube's reason when the endpoints cannot be served.
 */
export function buildOpenIdMetadata(issuerUrl: string, jwksUri: string | undefined, externalAddress: string, keys: readonly PublicKeyEntry[]): OpenIdMetadata {
  if (issuerUrl === '') throw new Error('empty issuer URL');
  if (!jwksUri && !externalAddress) throw new Error('either the JWKS URI or the default external address, or both, must be set');
  const parseErr = goUrlParseError(issuerUrl);
  if (parseErr) throw new Error(parseErr);
  if (schemeOf(issuerUrl) !== 'https') throw new Error(`issuer URL must use https scheme, got: ${issuerUrl}`);
  const afterScheme = issuerUrl.slice('https:'.length);
  const hash = afterScheme.indexOf('#');
  const beforeFragment = hash < 0 ? afterScheme : afterScheme.slice(0, hash);
  const q = beforeFragment.indexOf('?');
  if (q >= 0 && q < beforeFragment.length - 1) throw new Error(`issuer URL may not include a query, got: ${issuerUrl}`);
  if (hash >= 0 && hash < afterScheme.length - 1) throw new Error(`issuer URL may not include a fragment, got: ${issuerUrl}`);
  let uri = jwksUri;
  if (!uri) {
    uri = `https://${externalAddress}${jwksPath}`;
  } else if (schemeOf(uri) !== 'https') {
    throw new Error(`jwksURI requires https scheme, parsed as: ${uri}`);
  }
  if (keys.length === 0) throw new Error('no keys provided for validating keyset');
  const jwks = keys.map(publicJwk);
  const algs = [...new Set(jwks.map((k) => k.alg as string))].sort();
  const config = {
    issuer: issuerUrl,
    jwks_uri: uri,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algs,
  };
  return { configJson: JSON.stringify(config), keysetJson: JSON.stringify({ keys: jwks }) };
}
