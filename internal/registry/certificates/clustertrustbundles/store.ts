/**
 * The clustertrustbundles resource of certificates.k8s.io, served in v1beta1 (the storage
 * version kube 1.33 pins) and v1alpha1 (the same schema), stored under /clustertrustbundles/<name>.
 */
import { identityConversion } from '../../shared/conversion.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { clusterTrustBundleStrategy } from './strategy.js';

/** Builds the certificates.k8s.io/v1beta1 and v1alpha1 clustertrustbundles registrations. */
export const clusterTrustBundlesModule = defineResourceModule({
  group: 'certificates.k8s.io',
  resource: 'clustertrustbundles',
  kind: 'ClusterTrustBundle',
  keyPrefix: '/clustertrustbundles',
  storageVersion: 'v1beta1',
  strategy: clusterTrustBundleStrategy,
  versions: [{ version: 'v1beta1' }, { version: 'v1alpha1', conversion: identityConversion }],
});
