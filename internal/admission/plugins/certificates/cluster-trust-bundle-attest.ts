/**
 * ClusterTrustBundleAttest (kube's plugin of that name): creating or changing a ClusterTrustBundle
 * that names a signer needs the "attest" verb on that signer; the signer may not change. An update
 * that leaves the spec as it was (storage migration, finalizers) needs nothing. kube runs it only
 * while ClusterTrustBundles are served (feature gate ClusterTrustBundle); so does Capstan.
 */
import type { Authorizer } from '../../../authz/interface.js';
import { semanticEqual } from '../../../registry/core/shared/semantic-equal.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';
import { signerNameOf } from './signer-name-of.js';

/** The ClusterTrustBundleAttest plugin. */
export class ClusterTrustBundleAttest implements AdmissionPlugin {
  readonly name = 'ClusterTrustBundleAttest';

  /** served: whether clustertrustbundles is served at all (kube's feature gate); off, the plugin handles nothing. */
  constructor(
    private readonly authorizer: () => Authorizer,
    private readonly served: boolean,
  ) {}

  handles(operation: AdmissionOperation): boolean {
    return this.served && (operation === 'CREATE' || operation === 'UPDATE');
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    if (attrs.resource !== 'clustertrustbundles' || attrs.group !== 'certificates.k8s.io' || attrs.subresource !== '') return;
    const signerName = signerNameOf(attrs.object);
    if (attrs.operation === 'UPDATE') {
      if (signerName !== signerNameOf(attrs.oldObject)) throw admissionForbidden(attrs, 'changing signerName is forbidden');
    }
    if (signerName === '') return;
    if (attrs.operation === 'UPDATE' && semanticEqual(attrs.oldObject?.spec, attrs.object?.spec)) return;
    if (!(await isAuthorizedForSignerName(this.authorizer(), attrs.userInfo, 'attest', signerName))) {
      throw admissionForbidden(attrs, `user not permitted to attest for signerName "${signerName}"`);
    }
  }
}
