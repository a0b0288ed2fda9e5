/** How kube's Go client renders the errors of reaching a kubelet, for the messages it returns. */
import { describeDialError } from '../proxy/http-proxy.js';

/** Go's text for a dial or TLS error of a request to host (dial errors as the proxies render them). */
export function describeKubeletError(err: NodeJS.ErrnoException, host: string): string {
  switch (err.code) {
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'CERT_HAS_EXPIRED':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: ${err.message}`;
    default:
      return describeDialError(err, host);
  }
}
