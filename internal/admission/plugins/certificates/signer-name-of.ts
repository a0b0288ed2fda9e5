/** Reading spec.signerName of a CertificateSigningRequest or ClusterTrustBundle as admission sees it. */
import type { KubeObject } from '../../../../api/meta/types.js';

/** spec.signerName, or "" when the object has none. */
export function signerNameOf(obj: KubeObject | undefined): string {
  const name = (obj?.spec as { signerName?: unknown } | undefined)?.signerName;
  return typeof name === 'string' ? name : '';
}
