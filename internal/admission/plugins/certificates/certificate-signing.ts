/**
 * CertificateSigning (kube's plugin of that name): an update through
 * certificatesigningrequests/status that changes status.certificate needs the "sign" verb on the
 * CSR's (stored) signer. Status updates that leave the certificate alone pass.
 */
import type { Authorizer } from '../../../authz/interface.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';
import { signerNameOf } from './signer-name-of.js';

function certificateOf(obj: AdmissionAttributes['object']): Buffer {
  const cert = (obj?.status as { certificate?: unknown } | undefined)?.certificate;
  return Buffer.from(typeof cert === 'string' ? cert : '', 'base64');
}

/** The CertificateSigning plugin. */
export class CertificateSigning implements AdmissionPlugin {
  readonly name = 'CertificateSigning';

  constructor(private readonly authorizer: () => Authorizer) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'UPDATE';
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    if (attrs.subresource !== 'status' || attrs.resource !== 'certificatesigningrequests' || attrs.group !== 'certificates.k8s.io') return;
    if (certificateOf(attrs.object).equals(certificateOf(attrs.oldObject))) return;
    const signerName = signerNameOf(attrs.oldObject);
    if (!(await isAuthorizedForSignerName(this.authorizer(), attrs.userInfo, 'sign', signerName))) {
      throw admissionForbidden(attrs, `user not permitted to sign requests with signerName "${signerName}"`);
    }
  }
}
