/**
 * The selfsubjectreviews resource (authentication.k8s.io/v1, create only, nothing kept): who the
 * requester is, as the server sees them after authentication and impersonation (`kubectl auth
 * whoami`). The answer is a new review stamped with the time it was made.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { RequestContext } from '../../../request/context.js';
import type { RestStorage, ValidateObjectFunc, WriteOptions } from '../../interface.js';
import type { ResourceModule } from '../../registration.js';
import { metaTime } from '../../generic/object-meta.js';
import { prepareReviewRequest, reviewSelectableFields } from '../../shared/review-object.js';
import { userInfoJSON } from '../user-info.js';

/** The SelfSubjectReview storage. */
export class SelfSubjectReviewStorage implements RestStorage {
  async create(ctx: RequestContext, obj: KubeObject, _opts: WriteOptions, validate?: ValidateObjectFunc): Promise<KubeObject> {
    prepareReviewRequest(ctx, obj, false);
    await validate?.(ctx, structuredClone(obj), undefined);
    return {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      metadata: { creationTimestamp: metaTime() },
      status: { userInfo: userInfoJSON(ctx.user) },
    };
  }
}

/** Registers selfsubjectreviews. */
export const selfSubjectReviewsModule: ResourceModule = () => [
  {
    group: 'authentication.k8s.io',
    version: 'v1',
    resource: 'selfsubjectreviews',
    namespaced: false,
    main: new SelfSubjectReviewStorage(),
    subresources: {},
    selectableFields: reviewSelectableFields,
  },
];
