/**
 * The localsubjectaccessreviews resource (authorization.k8s.io/v1, create only, nothing kept): a
 * LocalSubjectAccessReview asks the server's authorizer what the subject its spec
 * names may do in the URL's namespace, and is answered with status.allowed,
 * denied, reason and evaluationError.
 */
import type { ResourceModule } from '../../registration.js';
import { reviewSelectableFields } from '../../shared/review-object.js';
import { AccessReviewStorage } from '../access-review-storage.js';

/** Registers localsubjectaccessreviews. */
export const localSubjectAccessReviewsModule: ResourceModule = (deps) => [
  {
    group: 'authorization.k8s.io',
    version: 'v1',
    resource: 'localsubjectaccessreviews',
    namespaced: true,
    main: new AccessReviewStorage('local', deps.security),
    subresources: {},
    selectableFields: reviewSelectableFields,
  },
];
