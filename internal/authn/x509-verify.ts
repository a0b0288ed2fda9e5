/**
 * Verifies a client certificate chain against one CA bundle, as Go's x509 Verify does with kube's
 * options (the roots of that bundle, the handshake's other certificates as intermediates, client
 * auth usage): each certificate valid now, each intermediate a CA, each signature checked, and
 * every extended key usage on the chain allowing client authentication. Costs a signature check
 * per link (tens of microseconds): callers cache the outcome per connection.
 */
import type { X509Certificate } from 'node:crypto';
import { AuthenticationError } from './interface.js';
import type { PeerCertificates } from './peer-certificates.js';

const clientAuth = '1.3.6.1.5.5.7.3.2';
const anyUsage = '2.5.29.37.0';
const maxDepth = 8;

const validity = new WeakMap<X509Certificate, { from: number; to: number }>();

function period(c: X509Certificate): { from: number; to: number } {
  let p = validity.get(c);
  if (!p) {
    p = { from: Date.parse(c.validFrom), to: Date.parse(c.validTo) };
    validity.set(c, p);
  }
  return p;
}

function validAt(c: X509Certificate, now: number): boolean {
  const p = period(c);
  return now >= p.from && now <= p.to;
}

function signedBy(child: X509Certificate, parent: X509Certificate): boolean {
  return child.checkIssued(parent) && child.verify(parent.publicKey);
}

/** A chain from cert up to one of roots, or undefined. */
function chainFrom(cert: X509Certificate, inters: readonly X509Certificate[], roots: readonly X509Certificate[], now: number, depth: number, used: Set<X509Certificate>): X509Certificate[] | undefined {
  for (const r of roots) if (validAt(r, now) && signedBy(cert, r)) return [cert, r];
  if (depth >= maxDepth) return undefined;
  for (const i of inters) {
    if (used.has(i) || !i.ca || !validAt(i, now) || !signedBy(cert, i)) continue;
    used.add(i);
    const rest = chainFrom(i, inters, roots, now, depth + 1, used);
    used.delete(i);
    if (rest) return [cert, ...rest];
  }
  return undefined;
}

function allowsClientAuth(c: X509Certificate): boolean {
  const usages = c.keyUsage as string[] | undefined;
  return !usages || usages.length === 0 || usages.includes(clientAuth) || usages.includes(anyUsage);
}

/** Describes a certificate in an error, as kube does (decimal serial). */
function identify(c: X509Certificate): string {
  let serial: string;
  try {
    serial = BigInt(`0x${c.serialNumber}`).toString();
  } catch {
    serial = c.serialNumber;
  }
  return `SN=${serial}, subject=${JSON.stringify(c.subject.replace(/\n/g, ', '))}`;
}

/** A verified chain: until when it stays valid (the earliest notAfter on it, epoch ms). */
export interface VerifiedChain {
  readonly chain: readonly X509Certificate[];
  readonly validUntil: number;
}

/** Verifies peer's chain against roots at now; throws AuthenticationError with Go's reason. */
export function verifyClientChain(peer: PeerCertificates, roots: readonly X509Certificate[], now: number): VerifiedChain {
  const leaf = peer.leaf;
  const fail = (reason: string): never => {
    throw new AuthenticationError(`verifying certificate ${identify(leaf)} failed: x509: ${reason}`);
  };
  const p = period(leaf);
  if (now < p.from) fail(`certificate has expired or is not yet valid: current time ${new Date(now).toISOString()} is before ${new Date(p.from).toISOString()}`);
  if (now > p.to) fail(`certificate has expired or is not yet valid: current time ${new Date(now).toISOString()} is after ${new Date(p.to).toISOString()}`);
  // A certificate that is itself in the bundle is trusted as it is (Go's roots.contains).
  const chain = roots.some((r) => r.raw.equals(leaf.raw)) ? [leaf] : chainFrom(leaf, peer.intermediates, roots, now, 0, new Set());
  if (!chain) return fail('certificate signed by unknown authority');
  if (!chain.every(allowsClientAuth)) fail('certificate specifies an incompatible key usage');
  return { chain, validUntil: Math.min(...chain.map((c) => period(c).to)) };
}
