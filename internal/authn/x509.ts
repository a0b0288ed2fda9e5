/**
 * The client certificate authenticator (--client-ca-file): a certificate that chains to the
 * bundle, is valid now and allows client authentication names the user by its subject's CN and
 * the groups by its O entries, with the certificate's credential id (`X509SHA256=` and the hex SHA-256
 * of its DER, kube 1.32+) in the user's extra (kube's CommonNameUserConversion). No certificate, or one without a
 * CN, is no opinion; an unknown, expired or otherwise invalid certificate is an
 * AuthenticationError (401), never a fall-through to anonymous. Decided once per connection.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { CABundle } from './ca-bundle.js';
import { ConnectionVerifier } from './connection-verifier.js';
import type { AuthenticationResult, Authenticator } from './interface.js';
import type { PeerCertificates } from './peer-certificates.js';

/** kube's user.CredentialIDKey: the extra key naming the credential a request was made with. */
export const credentialIDKey = 'authentication.kubernetes.io/credential-id';

/** A certificate's credential id as kube writes it: "X509SHA256=" and the hex SHA-256 of its DER. */
export function certificateCredentialID(der: Buffer): string {
  return `X509SHA256=${createHash('sha256').update(der).digest('hex')}`;
}

/** The user a verified certificate names, or undefined without a CN. Runs once per connection. */
export function certificateUser(peer: PeerCertificates): AuthenticationResult | undefined {
  if (peer.commonName.length === 0) return undefined;
  return { user: { name: peer.commonName, groups: [...peer.organizations], extra: { [credentialIDKey]: [certificateCredentialID(peer.leaf.raw)] } } };
}

/** Authenticates requests by their connection's client certificate. Answers synchronously. */
export class X509Authenticator implements Authenticator {
  private readonly verifier: ConnectionVerifier<AuthenticationResult | undefined>;

  constructor(bundle: CABundle) {
    this.verifier = new ConnectionVerifier(bundle, certificateUser);
  }

  authenticate(req: IncomingMessage): AuthenticationResult | undefined {
    return this.verifier.check(req);
  }
}
