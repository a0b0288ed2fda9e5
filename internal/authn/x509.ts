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
import { AuthenticationError, type AuthenticationResult, type Authenticator } from './interface.js';
import type { PeerCertificates } from './peer-certificates.js';

/** kube's user.CredentialIDKey: the extra key naming the credential a request was made with. */
export const credentialIDKey = 'authentication.kubernetes.io/credential-id';

/** A certificate's credential id as kube writes it: "X509SHA256=" and the hex SHA-256 of its DER. */
export function certificateCredentialID(der: Buffer): string {
  return `X509SHA256=${createHash('sha256').update(der).digest('hex')}`;
}

/**
 * The user's UID from the subject (the AllowParsingUserUIDFromCertAuth gate, on in kube 1.33):
 * none is no UID, more than one or an empty one refuses the certificate with kube's messages.
 */
function certificateUID(peer: PeerCertificates): string | undefined {
  if (peer.uids.length === 0) return undefined;
  if (peer.uids.length !== 1) throw new AuthenticationError(`expected 1 UID, but found multiple: [${peer.uids.join(' ')}]`);
  if (peer.uids[0] === '') throw new AuthenticationError('UID cannot be an empty string');
  return peer.uids[0];
}

/** The user a verified certificate names, or undefined without a CN; parseUID is the AllowParsingUserUIDFromCertAuth gate. Runs once per connection. */
export function certificateUser(peer: PeerCertificates, parseUID = true): AuthenticationResult | undefined {
  if (peer.commonName.length === 0) return undefined;
  const uid = parseUID ? certificateUID(peer) : undefined;
  return { user: { name: peer.commonName, ...(uid !== undefined ? { uid } : {}), groups: [...peer.organizations], extra: { [credentialIDKey]: [certificateCredentialID(peer.leaf.raw)] } } };
}

/** Authenticates requests by their connection's client certificate. Answers synchronously. */
export class X509Authenticator implements Authenticator {
  private readonly verifier: ConnectionVerifier<AuthenticationResult | undefined>;

  /** parseUID: the AllowParsingUserUIDFromCertAuth gate (kube 1.33: on). */
  constructor(bundle: CABundle, parseUID = true) {
    this.verifier = new ConnectionVerifier(bundle, (peer) => certificateUser(peer, parseUID));
  }

  authenticate(req: IncomingMessage): AuthenticationResult | undefined {
    return this.verifier.check(req);
  }
}
