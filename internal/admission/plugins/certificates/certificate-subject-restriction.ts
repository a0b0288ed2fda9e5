/**
 * CertificateSubjectRestriction (kube's plugin of that name): a CertificateSigningRequest for the
 * kubernetes.io/kube-apiserver-client signer may not ask for the system:masters group (an
 * organization of its subject): such a certificate could never be revoked.
 */
// @peculiar/x509 needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import { Pkcs10CertificateRequest } from '@peculiar/x509';
import { decodePem } from '../../../registry/certificates/shared/pem.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { signerNameOf } from './signer-name-of.js';

const kubeAPIServerClientSigner = 'kubernetes.io/kube-apiserver-client';

/** The organizations of spec.request's subject; throws kube's parse error text. */
function subjectOrganizations(request: unknown): string[] {
  const pem = typeof request === 'string' ? Buffer.from(request, 'base64').toString('latin1') : '';
  const block = decodePem(pem)[0];
  if (!block || block.type !== 'CERTIFICATE REQUEST') throw new Error('PEM block type must be CERTIFICATE REQUEST');
  let csr: Pkcs10CertificateRequest;
  try {
    csr = new Pkcs10CertificateRequest(block.bytes);
  } catch {
    throw new Error('x509: malformed certificate request');
  }
  return csr.subjectName.getField('O');
}

/** The CertificateSubjectRestriction plugin. */
export class CertificateSubjectRestriction implements AdmissionPlugin {
  readonly name = 'CertificateSubjectRestriction';

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE';
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    if (attrs.subresource !== '' || attrs.resource !== 'certificatesigningrequests' || attrs.group !== 'certificates.k8s.io') return;
    if (signerNameOf(attrs.object) !== kubeAPIServerClientSigner) return;
    let organizations: string[];
    try {
      organizations = subjectOrganizations((attrs.object?.spec as { request?: unknown } | undefined)?.request);
    } catch (err) {
      throw admissionForbidden(attrs, `failed to parse CSR: ${(err as Error).message}`);
    }
    if (organizations.includes('system:masters')) {
      throw admissionForbidden(attrs, `use of ${kubeAPIServerClientSigner} signer with system:masters group is not allowed`);
    }
  }
}
