/**
 * Serving certificates. With --tls-cert-file/--tls-private-key-file they are read as given;
 * without, a self-signed CA and a serving certificate it signs are generated into --cert-dir
 * (apiserver.crt holding the chain, apiserver.key, ca.crt) and reused on every later start.
 */
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createCertificateAuthority, issueCertificate } from './pki.js';

/** PEM material the HTTPS server serves with. */
export interface ServingCertificate {
  readonly cert: string;
  readonly key: string;
  /** The CA that signed cert (for kubeconfigs); absent when the cert came from files without one. */
  readonly ca?: string;
  /** Where the files live. */
  readonly certFile: string;
  readonly keyFile: string;
}

const validityYears = 1;

async function exists(path: string): Promise<boolean> {
  return await readFile(path).then(
    () => true,
    () => false,
  );
}

/** The names a generated serving certificate covers. */
export function servingNames(bindAddress: string, extraNames: readonly string[] = []): { dns: string[]; ips: string[] } {
  const dns = ['localhost', hostname(), 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local', ...extraNames];
  const ips = ['127.0.0.1', '::1', '10.0.0.1'];
  if (bindAddress && bindAddress !== '0.0.0.0' && bindAddress !== '::' && !ips.includes(bindAddress)) ips.push(bindAddress);
  return { dns: [...new Set(dns)], ips };
}

/** Generates a CA and a serving certificate signed by it. */
export async function generateSelfSigned(names: { dns: string[]; ips: string[] }): Promise<{ cert: string; key: string; ca: string }> {
  const stamp = Math.floor(Date.now() / 1000);
  const ca = await createCertificateAuthority(`capstan-ca@${stamp}`, validityYears * 365);
  const leaf = await issueCertificate(ca, { commonName: `capstan-apiserver@${stamp}`, usage: 'server', dns: names.dns, ips: names.ips });
  return { cert: leaf.cert + ca.certPem, key: leaf.key, ca: ca.certPem };
}

/** True when the PEM certificate is valid now and for at least another day. */
function stillValid(certPem: string): boolean {
  try {
    const c = new X509Certificate(certPem);
    return Date.parse(c.validTo) > Date.now() + 24 * 3600 * 1000 && Date.parse(c.validFrom) <= Date.now();
  } catch {
    return false;
  }
}

/**
 * Loads the serving certificate: from the given files, or the generated pair in certDir
 * (generating it when missing or expiring).
 */
export async function loadServingCertificate(opts: {
  certFile?: string;
  keyFile?: string;
  certDir: string;
  bindAddress: string;
}): Promise<ServingCertificate> {
  if (opts.certFile || opts.keyFile) {
    if (!opts.certFile || !opts.keyFile) throw new Error('--tls-cert-file and --tls-private-key-file must be given together');
    const [cert, key] = await Promise.all([readFile(opts.certFile, 'utf8'), readFile(opts.keyFile, 'utf8')]);
    return { cert, key, certFile: opts.certFile, keyFile: opts.keyFile };
  }
  const certFile = join(opts.certDir, 'apiserver.crt');
  const keyFile = join(opts.certDir, 'apiserver.key');
  const caFile = join(opts.certDir, 'ca.crt');
  if ((await exists(certFile)) && (await exists(keyFile)) && (await exists(caFile))) {
    const [cert, key, ca] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8'), readFile(caFile, 'utf8')]);
    if (stillValid(cert)) return { cert, key, ca, certFile, keyFile };
  }
  await mkdir(opts.certDir, { recursive: true, mode: 0o700 });
  const generated = await generateSelfSigned(servingNames(opts.bindAddress));
  await writeFile(keyFile, generated.key, { mode: 0o600 });
  await writeFile(certFile, generated.cert, { mode: 0o644 });
  await writeFile(caFile, generated.ca, { mode: 0o644 });
  return { ...generated, certFile, keyFile };
}
