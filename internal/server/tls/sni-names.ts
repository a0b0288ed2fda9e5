/**
 * Which --tls-sni-cert-key certificate answers a TLS client, by kube's rules: each pair answers
 * to its explicit patterns, or without any to the names in its certificate (the CN when it is a
 * DNS name, and the DNS SANs; never IPs). Explicit patterns win over extracted names; between
 * pairs, the one given first wins. A server name matches exactly first, then with its first label
 * replaced by "*" (so "*.foo.com" answers a.foo.com but neither foo.com nor a.b.foo.com); nothing
 * matching means the default certificate. A client sending no server name is matched by the
 * local address it connected to, against explicit IP patterns only.
 */
import 'reflect-metadata';
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';

/** One SNI certificate: its PEM chain, its explicit patterns and what a match yields. */
export interface SniEntry<T> {
  readonly certPem: string;
  readonly names: readonly string[];
  readonly value: T;
}

const dnsLabel = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123Subdomain = new RegExp(`^${dnsLabel}(\\.${dnsLabel})*$`);

function isDns1123Subdomain(name: string): boolean {
  return name.length <= 253 && dns1123Subdomain.test(name);
}

/**
 * The names a certificate answers to when given without patterns: its CN when that is "*" or a
 * DNS-1123 subdomain (after a leading "*."), and not an IP; then its DNS SANs. IP SANs are left
 * out, as SNI never carries an IP.
 */
export function certificateNames(certPem: string): string[] {
  const cert = new x509.X509Certificate(certPem);
  const names: string[] = [];
  const cn = cert.subjectName.getField('CN')[0] ?? '';
  if (isIP(cn) === 0 && (cn === '*' || isDns1123Subdomain(cn.startsWith('*.') ? cn.slice(2) : cn))) names.push(cn);
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  for (const n of san?.names.items ?? []) if (n.type === 'dns') names.push(n.value);
  return names;
}

/** The name index of the SNI certificates, built once per (re)load; lookups are one or two Map reads. */
export class SniNameMap<T> {
  private readonly byName = new Map<string, T>();
  /** Whether some explicit pattern is an IP (only then is a connection's local address looked up). */
  readonly hasAddresses: boolean;

  /** Indexes entries in flag order (throws when a certificate cannot be parsed). */
  constructor(entries: readonly SniEntry<T>[]) {
    const explicit = new Map<string, T>();
    // Backwards, so that the pair given first ends up owning a name several pairs claim.
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i] as SniEntry<T>;
      for (const n of e.names) explicit.set(n.toLowerCase(), e.value);
      if (e.names.length === 0) for (const n of certificateNames(e.certPem)) this.byName.set(n.toLowerCase(), e.value);
    }
    for (const [n, v] of explicit) this.byName.set(n, v);
    this.hasAddresses = [...this.byName.keys()].some((n) => isIP(n) !== 0);
  }

  /** The entry answering serverName (as the client sent it), or undefined for the default certificate. */
  match(serverName: string): T | undefined {
    const name = serverName.toLowerCase();
    const exact = this.byName.get(name);
    if (exact !== undefined || name === '') return exact;
    const dot = name.indexOf('.');
    return this.byName.get(dot < 0 ? '*' : `*${name.slice(dot)}`);
  }

  /** The entry for a client that sent no server name and connected to the local address ip. */
  forAddress(ip: string): T | undefined {
    return this.byName.get(ip.startsWith('::ffff:') ? ip.slice(7) : ip);
  }
}
