/**
 * The client certificate of a request's TLS connection, read once per connection: the leaf with
 * its subject, and the other certificates the handshake gave (candidate intermediates). The TLS
 * server asks for certificates but never rejects one; client-certificates.ts judges them.
 */
import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';

/** A connection's client certificate. */
export interface PeerCertificates {
  readonly leaf: X509Certificate;
  /** The subject's last CN (Go keeps the last), or "". */
  readonly commonName: string;
  /** The subject's O entries, in order. */
  readonly organizations: readonly string[];
  /** The subject's user UID entries (OID 1.3.6.1.4.1.57683.2, kube's certificate UID attribute), in order. */
  readonly uids: readonly string[];
  /** Every other certificate of the chain the handshake gave, leaf first excluded. */
  readonly intermediates: readonly X509Certificate[];
}

// Node names subject attributes it has no short name for by their dotted OID.
const uidOID = '1.3.6.1.4.1.57683.2';
const none = Symbol('none');
const byConnection = new WeakMap<object, PeerCertificates | typeof none>();

function values(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function read(socket: TLSSocket): PeerCertificates | undefined {
  // Without a certificate Node answers an empty object.
  const detailed = socket.getPeerCertificate(true) as Partial<DetailedPeerCertificate> | undefined;
  if (!detailed?.raw) return undefined;
  const intermediates: X509Certificate[] = [];
  const seen = new Set<object>([detailed]);
  for (let c = detailed.issuerCertificate; c && !seen.has(c) && c.raw; c = c.issuerCertificate) {
    seen.add(c);
    intermediates.push(new X509Certificate(c.raw));
  }
  const subject = detailed.subject as unknown as Record<string, string | string[] | undefined>;
  const cns = values(subject.CN);
  return { leaf: new X509Certificate(detailed.raw), commonName: cns[cns.length - 1] ?? '', organizations: values(subject.O), uids: values(subject[uidOID]), intermediates };
}

/** The client certificate of req's connection, or undefined (no TLS, or none presented). */
export function peerCertificates(req: IncomingMessage): PeerCertificates | undefined {
  const socket = req.socket as Partial<TLSSocket> | undefined;
  if (!socket || typeof socket.getPeerCertificate !== 'function') return undefined;
  const known = byConnection.get(socket);
  if (known !== undefined) return known === none ? undefined : known;
  const peer = read(socket as TLSSocket);
  byConnection.set(socket, peer ?? none);
  return peer;
}
