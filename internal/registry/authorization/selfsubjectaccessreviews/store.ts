/**
 * The selfsubjectaccessreviews resource (authorization.k8s.io/v1, create only, nothing kept): a
 * SelfSubjectAccessReview asks the server's authorizer what the requester may do
 * (`kubectl auth can-i`), and is answered with status.allowed,
 * denied, reason and evaluationError.
 */
import type { ResourceModule } from '../../registration.js';
import { reviewSelectableFields } from '../../shared/review-object.js';
import { AccessReviewStorage } from '../access-review-storage.js';

/** Registers selfsubjectaccessreviews. */
export const selfSubjectAccessReviewsModule: ResourceModule = (deps) => [
  {
    group: 'authorization.k8s.io',
    version: 'v1',
    resource: 'selfsubjectaccessreviews',
    namespaced: false,
    main: new AccessReviewStorage('self', deps.security),
    subresources: {},
    selectableFields: reviewSelectableFields,
  },
];
