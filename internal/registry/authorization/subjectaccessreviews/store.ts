/**
 * The subjectaccessreviews resource (authorization.k8s.io/v1, create only, nothing kept): a
 * SubjectAccessReview asks the server's authorizer what the subject its spec names (user, groups,
 * uid, extra) may do, and is answered with status.allowed,
 * denied, reason and evaluationError.
 */
import type { ResourceModule } from '../../registration.js';
import { reviewSelectableFields } from '../../shared/review-object.js';
import { AccessReviewStorage } from '../access-review-storage.js';

/** Registers subjectaccessreviews. */
export const subjectAccessReviewsModule: ResourceModule = (deps) => [
  {
    group: 'authorization.k8s.io',
    version: 'v1',
    resource: 'subjectaccessreviews',
    namespaced: false,
    main: new AccessReviewStorage('subject', deps.security),
    subresources: {},
    selectableFields: reviewSelectableFields,
  },
];
