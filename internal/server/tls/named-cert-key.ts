/**
 * One --tls-sni-cert-key value in kube's NamedCertKey syntax: "cert,key" or "cert,key:pattern,...",
 * each pattern a domain name, possibly with a leading wildcard label ("*.foo.com"), or an IP.
 */

/** A certificate and key file pair, with the names it answers to when given explicitly. */
export interface NamedCertKey {
  readonly certFile: string;
  readonly keyFile: string;
  /** Explicit patterns; empty: the names come from the certificate (DNS SANs and CN). */
  readonly names: readonly string[];
}

/** Parses one value as kube's NamedCertKey.Set does (spaces trimmed); throws its messages. */
export function parseNamedCertKey(value: string): NamedCertKey {
  const colon = value.indexOf(':');
  let pair = value.trim();
  let names: string[] = [];
  if (colon >= 0) {
    pair = value.slice(0, colon).trim();
    const list = value.slice(colon + 1).trim();
    if (list === '') throw new Error('empty names list is not allowed');
    names = list.split(',').map((n) => n.trim());
  }
  const files = pair.split(',');
  if (files.length !== 2) throw new Error('expected comma separated certificate and key file paths');
  return { certFile: (files[0] as string).trim(), keyFile: (files[1] as string).trim(), names };
}
