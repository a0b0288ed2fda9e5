/**
 * CertificateApproval (kube's plugin of that name): an update through
 * certificatesigningrequests/approval needs the "approve" verb on the CSR's signer
 * (signers/<signerName> of certificates.k8s.io). The stored object's signer is the one checked, so a
 * request cannot change the signer to one it may approve.
 */
import type { Authorizer } from '../../../authz/interface.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';
import { signerNameOf } from './signer-name-of.js';

/** The CertificateApproval plugin. */
export class CertificateApproval implements AdmissionPlugin {
  readonly name = 'CertificateApproval';

  constructor(private readonly authorizer: () => Authorizer) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'UPDATE';
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    if (attrs.subresource !== 'approval' || attrs.resource !== 'certificatesigningrequests' || attrs.group !== 'certificates.k8s.io') return;
    const signerName = signerNameOf(attrs.oldObject);
    if (!(await isAuthorizedForSignerName(this.authorizer(), attrs.userInfo, 'approve', signerName))) {
      throw admissionForbidden(attrs, `user not permitted to approve requests with signerName "${signerName}"`);
    }
  }
}
