/**
 * Go-like renderings of Node's request errors, so that conditions and proxy errors read as
 * kube-aggregator's ("dial tcp 127.0.0.1:1: connect: connection refused").
 */

/** The text Go's net/http would give for err on a request to url. */
export function describeRequestError(err: NodeJS.ErrnoException, url: string): string {
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${host}: connect: connection refused`;
    case 'EHOSTUNREACH':
      return `dial tcp ${host}: connect: no route to host`;
    case 'ETIMEDOUT':
      return `dial tcp ${host}: i/o timeout`;
    case 'ECONNRESET':
      return 'read: connection reset by peer';
    case 'ENOTFOUND':
      return `dial tcp: lookup ${host.replace(/:\d+$/, '')}: no such host`;
    case 'CLIENT_TIMEOUT':
      return 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: ${err.message}`;
    default:
      return err.message;
  }
}
