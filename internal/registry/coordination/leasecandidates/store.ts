/**
 * The leasecandidates resource of coordination.k8s.io, served in v1beta1 (the storage version
 * kube 1.33 pins) and v1alpha2 (the same schema), stored under /leasecandidates/<namespace>/<name>.
 */
import { identityConversion } from '../../shared/conversion.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { leaseCandidateStrategy } from './strategy.js';

/** Builds the coordination.k8s.io/v1beta1 and v1alpha2 leasecandidates registrations. */
export const leaseCandidatesModule = defineResourceModule({
  group: 'coordination.k8s.io',
  resource: 'leasecandidates',
  kind: 'LeaseCandidate',
  keyPrefix: '/leasecandidates',
  storageVersion: 'v1beta1',
  strategy: leaseCandidateStrategy,
  versions: [{ version: 'v1beta1' }, { version: 'v1alpha2', conversion: identityConversion }],
});
