/**
 * The tokenreviews resource (authentication.k8s.io/v1, cluster-scoped, create only, nothing kept):
 * whether spec.token is valid for this server, who it belongs to and for which audiences. The
 * answer is 201 Created with the review as sent plus its status; an invalid token is a status
 * (authenticated false, error), never an HTTP error. The server's authenticators are read when a
 * review arrives (they are built after the registrations).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newBadRequest, newInternalError } from '../../../apierrors/factories.js';
import type { RequestContext } from '../../../request/context.js';
import type { RestStorage, ValidateObjectFunc, WriteOptions } from '../../interface.js';
import type { ResourceModule, SecurityHandles } from '../../registration.js';
import { prepareReviewRequest, reviewResponseMeta, reviewSelectableFields } from '../../shared/review-object.js';
import { userInfoJSON } from '../user-info.js';
import { authenticateForReview } from './token-review-authentication.js';

/** authenticationv1.TokenReviewSpec as it arrives. */
interface TokenReviewSpec {
  readonly token?: string;
  readonly audiences?: readonly string[] | null;
}

/** authenticationv1.TokenReviewStatus as it arrives. */
interface TokenReviewStatus {
  readonly authenticated?: boolean;
  readonly user?: Record<string, unknown>;
  readonly audiences?: readonly string[];
  readonly error?: string;
}

/** The TokenReview storage. */
export class TokenReviewStorage implements RestStorage {
  constructor(private readonly security: SecurityHandles | undefined) {}

  async create(ctx: RequestContext, obj: KubeObject, _opts: WriteOptions, validate?: ValidateObjectFunc): Promise<KubeObject> {
    prepareReviewRequest(ctx, obj, false);
    const spec = (obj.spec ?? {}) as TokenReviewSpec;
    if (!spec.token) throw newBadRequest('token is required for TokenReview in authentication');
    await validate?.(ctx, structuredClone(obj), undefined);
    const authn = this.security?.authentication;
    const outcome = authn ? await authenticateForReview(authn, spec.token, spec.audiences ?? []) : undefined;
    if (outcome?.audienceMismatch) throw newInternalError('error validating audiences');
    // Like kube, the status sent is kept where the review found nothing to put instead.
    const sent = (typeof obj.status === 'object' && obj.status !== null ? obj.status : {}) as TokenReviewStatus;
    const authenticated = outcome ? outcome.user !== undefined : sent.authenticated === true;
    const user = outcome?.user ? userInfoJSON(outcome.user) : (sent.user ?? {});
    const audiences = outcome?.user ? outcome.audiences : sent.audiences;
    const error = outcome?.error ?? sent.error;
    const status = {
      ...(authenticated ? { authenticated: true } : {}),
      user,
      ...(audiences && audiences.length > 0 ? { audiences: [...audiences] } : {}),
      ...(error ? { error } : {}),
    };
    return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: reviewResponseMeta(obj.metadata), spec: obj.spec, status };
  }
}

/** Registers tokenreviews. */
export const tokenReviewsModule: ResourceModule = (deps) => [
  {
    group: 'authentication.k8s.io',
    version: 'v1',
    resource: 'tokenreviews',
    namespaced: false,
    main: new TokenReviewStorage(deps.security),
    subresources: {},
    selectableFields: reviewSelectableFields,
  },
];
