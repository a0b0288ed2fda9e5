/**
 * Judges a connection's client certificate against one CA bundle once per TLS connection (a
 * WeakMap on the socket), so a keep-alive connection pays the chain verification once and every
 * later request a map lookup. A decision is dropped when the bundle changes (its file was
 * replaced) and when the chain it verified expires; a refusal is kept a minute at most.
 *
 * Reading and verifying a chain in JavaScript costs most of a millisecond, more than the TLS
 * handshake itself: accepted certificates are also remembered by their SHA-256 fingerprint (a
 * bounded map), so a client opening many connections with the same certificate pays for it once
 * per bundle version. That shortcut is taken only for a connection whose presented chain the TLS
 * layer verified too (socket.authorized, against the CAs the server asks with): a leaf presented
 * without the intermediates it needs is judged again, and refused. Refusals are never shared
 * between connections.
 */
import type { IncomingMessage } from 'node:http';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import type { CABundle } from './ca-bundle.js';
import { AuthenticationError } from './interface.js';
import { peerCertificates, type PeerCertificates } from './peer-certificates.js';
import { verifyClientChain } from './x509-verify.js';
import { connectionOf } from '../server/serving/protocol.js';

interface Decision<T> {
  readonly version: number;
  /** Epoch ms after which the decision must be made again. */
  readonly until: number;
  readonly value?: T;
  readonly error?: AuthenticationError;
}

const refusalMs = 60_000;
/** Accepted certificates remembered by fingerprint, at most. */
const maxRemembered = 4096;

/**
 * Verifies client certificates against bundle; accept turns a verified certificate into what the
 * caller keeps (a user), or throws AuthenticationError to refuse it. accept runs once per decision.
 */
export class ConnectionVerifier<T> {
  private readonly decisions = new WeakMap<object, Decision<T>>();
  private readonly accepted = new Map<string, Decision<T>>();

  constructor(
    private readonly bundle: CABundle,
    private readonly accept: (peer: PeerCertificates) => T,
  ) {}

  /** accept's answer for req's certificate; undefined without one; throws AuthenticationError. */
  check(req: IncomingMessage): T | undefined {
    const socket = connectionOf(req);
    const now = Date.now();
    let d = this.decisions.get(socket);
    if (!d || d.version !== this.bundle.version || now > d.until) {
      d = this.decide(req, now);
      this.decisions.set(socket, d);
    }
    if (d.error) throw d.error;
    return d.value;
  }

  private decide(req: IncomingMessage, now: number): Decision<T> {
    const version = this.bundle.version;
    const fingerprint = leafFingerprint(req);
    if (fingerprint === undefined) return { version, until: Infinity };
    const chainVerified = (req.socket as Partial<TLSSocket>).authorized === true;
    const known = chainVerified ? this.accepted.get(fingerprint) : undefined;
    if (known && known.version === version && now <= known.until) return known;
    const peer = peerCertificates(req);
    if (!peer) return { version, until: Infinity };
    try {
      const verified = verifyClientChain(peer, this.bundle.roots, now);
      const decision = { version, until: verified.validUntil, value: this.accept(peer) };
      if (chainVerified) this.remember(fingerprint, decision);
      return decision;
    } catch (err) {
      if (!(err instanceof AuthenticationError)) throw err;
      return { version, until: now + refusalMs, error: err };
    }
  }

  private remember(fingerprint: string, decision: Decision<T>): void {
    this.accepted.delete(fingerprint);
    if (this.accepted.size >= maxRemembered) this.accepted.delete(this.accepted.keys().next().value as string);
    this.accepted.set(fingerprint, decision);
  }
}

/** The SHA-256 fingerprint of the connection's client certificate (the leaf only: cheap), or undefined. */
function leafFingerprint(req: IncomingMessage): string | undefined {
  const socket = req.socket as Partial<TLSSocket> | undefined;
  if (!socket || typeof socket.getPeerCertificate !== 'function') return undefined;
  const leaf = socket.getPeerCertificate(false) as Partial<PeerCertificate> | null;
  return leaf?.raw ? leaf.fingerprint256 : undefined;
}
