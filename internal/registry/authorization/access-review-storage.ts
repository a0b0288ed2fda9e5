/**
 * The storage of the three access reviews (create only; nothing is kept): validate the review as
 * kube does, let validating admission see it, ask the server's authorizer (the --authorization-mode
 * union, read when the request arrives) and answer with the review and its status.
 *  - subject: SubjectAccessReview, about the user, groups, uid and extra its spec names;
 *  - local: LocalSubjectAccessReview, the same inside the URL's namespace;
 *  - self: SelfSubjectAccessReview, about the requester (`kubectl auth can-i`).
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { newBadRequest, newInternalError } from '../../apierrors/factories.js';
import type { Authorizer } from '../../authz/interface.js';
import type { RequestContext } from '../../request/context.js';
import type { RestStorage, ValidateObjectFunc, WriteOptions } from '../interface.js';
import type { SecurityHandles } from '../registration.js';
import { prepareReviewRequest, reviewResponseMeta } from '../shared/review-object.js';
import { attributesFor, reviewAccess, subjectOf } from './access-review-attributes.js';
import { invalidReview, specOf, validateAccessReview, validateLocalAccessReview } from './access-review-validation.js';

/** Which access review a storage serves. */
export type AccessReviewKind = 'subject' | 'local' | 'self';

/** The server's authorizer; a 500 when the server was built without one (a wiring fault). */
export function authorizerOf(security: SecurityHandles | undefined): Authorizer {
  const authorizer = security?.authorization?.authorizer;
  if (!authorizer) throw newInternalError('no authorizer is configured');
  return authorizer;
}

/** An access review's RestStorage. */
export class AccessReviewStorage implements RestStorage {
  constructor(
    private readonly kind: AccessReviewKind,
    private readonly security: SecurityHandles | undefined,
  ) {}

  async create(ctx: RequestContext, obj: KubeObject, _opts: WriteOptions, validate?: ValidateObjectFunc): Promise<KubeObject> {
    prepareReviewRequest(ctx, obj, this.kind === 'local');
    const err = invalidReview(this.kind === 'local' ? validateLocalAccessReview(obj) : validateAccessReview(obj, this.kind === 'subject'));
    if (err) throw err;
    if (this.kind === 'local') {
      const namespace = ctx.requestInfo.namespace;
      if (namespace === '') throw newBadRequest('namespace is required on this type: ');
      if (namespace !== obj.metadata.namespace) throw newBadRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
    }
    await validate?.(ctx, structuredClone(obj), undefined);
    const spec = specOf(obj);
    const user = this.kind === 'self' ? ctx.user : subjectOf(spec);
    const status = await reviewAccess(authorizerOf(this.security), attributesFor(user, spec));
    return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: reviewResponseMeta(obj.metadata), spec: obj.spec ?? {}, status };
  }
}
