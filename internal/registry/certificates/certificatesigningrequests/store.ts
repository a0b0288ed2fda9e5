/**
 * The certificatesigningrequests resource of certificates.k8s.io/v1, stored under
 * /certificatesigningrequests/<name>, with certificatesigningrequests/status and /approval.
 */
import { StatusStore } from '../../generic/status-store.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { csrApprovalStrategy, csrStatusStrategy, csrStrategy } from './strategy.js';

/** Builds the certificates.k8s.io/v1 certificatesigningrequests registration. */
export const certificateSigningRequestsModule = defineResourceModule({
  group: 'certificates.k8s.io',
  resource: 'certificatesigningrequests',
  kind: 'CertificateSigningRequest',
  keyPrefix: '/certificatesigningrequests',
  storageVersion: 'v1',
  strategy: csrStrategy,
  versions: [{ version: 'v1' }],
  status: csrStatusStrategy,
  subresources: (store) => ({ approval: new StatusStore(store, csrApprovalStrategy) }),
});
