/**
 * The serviceaccounts/token subresource (kube's TokenREST): POST an authentication.k8s.io/v1
 * TokenRequest for a service account and get it back with status.token, a signed bound token, and
 * status.expirationTimestamp. Audiences default to the API audiences and expirationSeconds to one
 * hour; a longer request than --service-account-max-token-expiration is shortened with a warning,
 * and a pod-bound request for 3607 s with API audiences is extended to a year (warnafter) under
 * --service-account-extend-token-expiration.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newBadRequest, newInvalid } from '../../../apierrors/factories.js';
import { addWarning, type RequestContext } from '../../../request/context.js';
import { boundClaims, expirationExtensionSeconds, warnOnlyBoundTokenExpirationSeconds } from '../../../serviceaccount/claims.js';
import type { ServiceAccountTokenConfig } from '../../../serviceaccount/config.js';
import { fieldErrorCause, invalid, type FieldError } from '../../../validation/field-error.js';
import type { RestStorage, ValidateObjectFunc, WriteOptions } from '../../interface.js';
import { resolveBoundObject, type StorageOf } from './bound-object.js';

/** kube's SetDefaults_TokenRequestSpec: one hour. */
export const defaultTokenExpirationSeconds = 60 * 60;
const minExpirationSeconds = 10 * 60;
const maxExpirationSeconds = 2 ** 32;

/** kube's ValidateTokenRequest. */
export function validateTokenRequest(spec: { expirationSeconds: number }): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.expirationSeconds < minExpirationSeconds) errs.push(invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 10 minutes'));
  if (spec.expirationSeconds > maxExpirationSeconds) errs.push(invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  return errs;
}

function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

function invalidTokenRequest(name: string, errs: readonly FieldError[]): Error {
  return newInvalid('authentication.k8s.io', 'TokenRequest', name, errs.map(fieldErrorCause));
}

/** The token subresource's storage: create only. The service account's name is ctx.requestInfo.name. */
export class TokenRequestStorage implements RestStorage {
  constructor(
    private readonly serviceAccounts: RestStorage,
    private readonly config: ServiceAccountTokenConfig,
    private readonly storageOf: StorageOf,
  ) {}

  async create(ctx: RequestContext, obj: KubeObject, _opts: WriteOptions, validate?: ValidateObjectFunc): Promise<KubeObject> {
    const { name, namespace } = ctx.requestInfo;
    if (!namespace) throw newBadRequest('namespace is required');
    const meta = obj.metadata ?? {};
    if (meta.name && meta.name !== name) throw invalidTokenRequest(name, [invalid('metadata.name', meta.name, 'must match the service account name if specified')]);
    if (meta.namespace && meta.namespace !== namespace) {
      throw invalidTokenRequest(name, [invalid('metadata.namespace', meta.namespace, 'must match the service account namespace if specified')]);
    }
    const account = await (this.serviceAccounts.get as NonNullable<RestStorage['get']>).call(this.serviceAccounts, ctx, name, { resourceVersion: '' });

    const spec = { ...((obj.spec ?? {}) as Record<string, unknown>) };
    const audiences = Array.isArray(spec.audiences) && spec.audiences.length > 0 ? (spec.audiences as string[]) : [...this.config.apiAudiences];
    spec.audiences = audiences;
    if (typeof spec.expirationSeconds !== 'number') spec.expirationSeconds = defaultTokenExpirationSeconds;
    const nowMs = Date.now();
    const { managedFields: _m, ...rest } = meta;
    const req: KubeObject = {
      ...obj,
      metadata: { ...rest, name: meta.name || name, namespace: meta.namespace || namespace, creationTimestamp: rfc3339(nowMs) },
      spec,
    };
    delete req.status;
    const errs = validateTokenRequest(spec as { expirationSeconds: number });
    if (errs.length > 0) throw invalidTokenRequest('', errs);
    await validate?.(ctx, structuredClone(req), undefined);

    const bound = await resolveBoundObject(ctx, this.storageOf, namespace, name, spec.boundObjectRef);
    const max = this.config.maxExpirationSeconds;
    if (max > 0 && (spec.expirationSeconds as number) > max) {
      addWarning(ctx, `requested expiration of ${spec.expirationSeconds as number} seconds shortened to ${max} seconds`);
      spec.expirationSeconds = max;
    }
    const requested = spec.expirationSeconds as number;
    let expirationSeconds = requested;
    let warnAfterSeconds = 0;
    const apiAudiences = this.config.apiAudiences;
    if (this.config.extendExpiration && bound.pod && requested === warnOnlyBoundTokenExpirationSeconds && audiences.every((a) => apiAudiences.includes(a))) {
      warnAfterSeconds = requested;
      expirationSeconds = expirationExtensionSeconds;
    }
    const now = Math.floor(nowMs / 1000);
    const token = this.config.generator.generate(
      boundClaims({
        namespace,
        serviceAccount: { name: account.metadata.name ?? name, uid: account.metadata.uid ?? '' },
        audiences,
        expirationSeconds,
        warnAfterSeconds,
        now,
        ...bound,
      }),
    );
    return { ...req, status: { token, expirationTimestamp: rfc3339((now + requested) * 1000) } };
  }
}
