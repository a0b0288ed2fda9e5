/**
 * The service account token configuration the server runs with, loaded once at start from the
 * validated flags: the token generator (first issuer, signing key), the verification keys (every
 * key of --service-account-key-file, or the serving key when none is given, plus the signing key's
 * public half), the accepted issuers and the API audiences. Errors carry kube-apiserver's text.
 */
import type { Logger } from '../observability/logging.js';
import type { ServiceAccountOptions } from '../server/options/service-account.js';
import { formatGoDuration } from '../server/options/duration.js';
import { expirationExtensionSeconds, legacyIssuer, warnOnlyBoundTokenExpirationSeconds } from './claims.js';
import { privateKeyFromFile, publicKeyEntry, publicKeysFromFile, type PublicKeyEntry } from './keys.js';
import { TokenGenerator } from './token-generator.js';

/** What issuing and verifying service account tokens runs with. Immutable. */
export interface ServiceAccountTokenConfig {
  /** Every accepted "iss"; the first is the generator's. */
  readonly issuers: readonly string[];
  /** --api-audiences (the issuers by default): the audiences tokens for this API must carry. */
  readonly apiAudiences: readonly string[];
  /** Keys that verify tokens, unique by kid. */
  readonly verificationKeys: readonly PublicKeyEntry[];
  readonly generator: TokenGenerator;
  /** Signs legacy Secret-based tokens (issuer "kubernetes/serviceaccount") with the same key. */
  readonly legacyGenerator: TokenGenerator;
  /** 0: no maximum. */
  readonly maxExpirationSeconds: number;
  readonly extendExpiration: boolean;
  /** --service-account-lookup (legacy tokens only; bound tokens are always looked up, as in kube). */
  readonly lookup: boolean;
  readonly jwksUri?: string;
}

/** Where the server's own key lives (the default of --service-account-key-file). */
export interface ServingKey {
  readonly keyFile: string;
}

/** Loads the configuration; throws kube's start-up errors. Logs kube's warnings on log. */
export async function loadServiceAccountTokenConfig(opts: ServiceAccountOptions, serving: ServingKey, log: Logger): Promise<ServiceAccountTokenConfig> {
  const entries: PublicKeyEntry[] = [];
  const add = (e: PublicKeyEntry): void => {
    if (!entries.some((x) => x.kid === e.kid)) entries.push(e);
  };
  if (opts.keyFiles.length > 0) {
    for (const file of opts.keyFiles) for (const key of await publicKeysFromFile(file)) add(publicKeyEntry(key));
  } else {
    try {
      for (const key of await publicKeysFromFile(serving.keyFile)) add(publicKeyEntry(key));
    } catch (err) {
      log.warn(`the serving key cannot verify service account tokens (${(err as Error).message}); only the signing key will`);
    }
  }

  let signingKey;
  try {
    signingKey = await privateKeyFromFile(opts.signingKeyFile);
  } catch (err) {
    throw new Error(`failed to parse service-account-issuer-key-file: ${(err as Error).message}`);
  }
  let generator: TokenGenerator;
  try {
    generator = new TokenGenerator(opts.issuers[0] as string, signingKey);
  } catch (err) {
    throw new Error(`failed to build token generator: ${(err as Error).message}`);
  }
  add(publicKeyEntry(generator.publicKey));

  const max = opts.maxExpirationSeconds;
  if (max !== 0 && opts.extendExpiration) {
    const current = formatGoDuration(max * 1000);
    if (max < warnOnlyBoundTokenExpirationSeconds) {
      log.warn(
        `service-account-extend-token-expiration is true, in order to correctly trigger safe transition logic, service-account-max-token-expiration must be set longer than ${warnOnlyBoundTokenExpirationSeconds} seconds (currently ${current})`,
      );
    }
    if (max < expirationExtensionSeconds) {
      log.warn(`service-account-extend-token-expiration is true, enabling tokens valid up to ${expirationExtensionSeconds} seconds, which is longer than service-account-max-token-expiration set to ${current} seconds`);
    }
  }
  return {
    issuers: opts.issuers,
    apiAudiences: opts.apiAudiences,
    verificationKeys: entries,
    generator,
    legacyGenerator: new TokenGenerator(legacyIssuer, signingKey),
    maxExpirationSeconds: max,
    extendExpiration: opts.extendExpiration,
    lookup: opts.lookup,
    ...(opts.jwksUri ? { jwksUri: opts.jwksUri } : {}),
  };
}
