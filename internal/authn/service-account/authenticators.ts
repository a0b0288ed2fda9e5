/**
 * The service account token authenticators, in kube's order: legacy Secret-based tokens (issuer
 * "kubernetes/serviceaccount"), then bound tokens of the configured issuers. Both verify with the
 * same keys and share one cache of verified signatures.
 */
import type { ServiceAccountTokenConfig } from '../../serviceaccount/config.js';
import { legacyIssuer } from '../../serviceaccount/claims.js';
import type { AuthenticationDeps } from '../build.js';
import type { TokenAuthenticator } from '../interface.js';
import { BoundTokenValidator } from './bound-validator.js';
import { ServiceAccountTokenGetter } from './getter.js';
import { ServiceAccountJwtAuthenticator, VerifiedTokens } from './jwt-authenticator.js';
import { LegacyTokenValidator } from './legacy-validator.js';

/** Builds the two authenticators; deps.storageOf is read when tokens arrive, not now. */
export function serviceAccountTokenAuthenticators(config: ServiceAccountTokenConfig, deps: Pick<AuthenticationDeps, 'storageOf' | 'log' | 'metrics'>): TokenAuthenticator[] {
  const getter = new ServiceAccountTokenGetter(deps.storageOf);
  const verified = new VerifiedTokens(config.verificationKeys);
  const legacy = new LegacyTokenValidator(config.lookup, getter, deps.storageOf('', 'secrets'), deps.log, deps.metrics?.serviceAccountTokens);
  return [
    new ServiceAccountJwtAuthenticator([legacyIssuer], verified, config.apiAudiences, legacy),
    new ServiceAccountJwtAuthenticator(config.issuers, verified, config.apiAudiences, new BoundTokenValidator(getter, Date.now, deps.metrics?.serviceAccountTokens)),
  ];
}
