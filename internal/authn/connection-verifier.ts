/**
 * Judges a connection's client certificate against one CA bundle once per TLS connection (a
 * WeakMap on the socket), so a keep-alive connection pays the chain verification once and every
 * later request a map lookup. A decision is dropped when the bundle changes (its file was
 * replaced) and when the chain it verified expires; a refusal is kept a minute at most.
 */
import type { IncomingMessage } from 'node:http';
import type { CABundle } from './ca-bundle.js';
import { AuthenticationError } from './interface.js';
import { peerCertificates, type PeerCertificates } from './peer-certificates.js';
import { verifyClientChain } from './x509-verify.js';

interface Decision<T> {
  readonly version: number;
  /** Epoch ms after which the decision must be made again. */
  readonly until: number;
  readonly value?: T;
  readonly error?: AuthenticationError;
}

const refusalMs = 60_000;

/**
 * Verifies client certificates against bundle; accept turns a verified certificate into what the
 * caller keeps (a user), or throws AuthenticationError to refuse it. accept runs once per decision.
 */
export class ConnectionVerifier<T> {
  private readonly decisions = new WeakMap<object, Decision<T>>();

  constructor(
    private readonly bundle: CABundle,
    private readonly accept: (peer: PeerCertificates) => T,
  ) {}

  /** accept's answer for req's certificate; undefined without one; throws AuthenticationError. */
  check(req: IncomingMessage): T | undefined {
    const socket = req.socket;
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
    const peer = peerCertificates(req);
    if (!peer) return { version, until: Infinity };
    try {
      const verified = verifyClientChain(peer, this.bundle.roots, now);
      return { version, until: verified.validUntil, value: this.accept(peer) };
    } catch (err) {
      if (!(err instanceof AuthenticationError)) throw err;
      return { version, until: now + refusalMs, error: err };
    }
  }
}
