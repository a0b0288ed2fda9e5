/**
 * The kubelet server's certificate: --tls-cert-file/--tls-private-key-file when given; else, as
 * kubelet does, <cert-dir>/kubelet.crt and kubelet.key, generated once when they cannot be read
 * (a CA "<node>-ca@<unix time>" signing "<node>@<unix time>" for the node name as a DNS name or IP,
 * the file holding both certificates, valid a year, as client-go's GenerateSelfSignedCertKey).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';

/** A PEM certificate chain and its key. */
export interface ServingPair {
  readonly cert: string;
  readonly key: string;
}

/** Reads the configured pair, or the one in certDir, generating it first when absent. */
export async function loadOrGenerateServingPair(opts: { tlsCertFile?: string; tlsPrivateKeyFile?: string; certDir: string; hostName: string }): Promise<ServingPair> {
  if (opts.tlsCertFile || opts.tlsPrivateKeyFile) {
    if (!opts.tlsCertFile || !opts.tlsPrivateKeyFile) throw new Error('both --tls-cert-file and --tls-private-key-file must be given, or neither');
    return { cert: await readFile(opts.tlsCertFile, 'utf8'), key: await readFile(opts.tlsPrivateKeyFile, 'utf8') };
  }
  const certPath = join(opts.certDir, 'kubelet.crt');
  const keyPath = join(opts.certDir, 'kubelet.key');
  const existing = await Promise.all([readFile(certPath, 'utf8'), readFile(keyPath, 'utf8')]).catch(() => undefined);
  if (existing) return { cert: existing[0], key: existing[1] };
  // The PKI helpers (and @peculiar/x509) load only when a pair must be made: ~15 MB resident.
  const { createCertificateAuthority, issueCertificate } = await import('../../server/pki.js');
  const stamp = Math.floor(Date.now() / 1000);
  const ca = await createCertificateAuthority(`${opts.hostName}-ca@${stamp}`, 365);
  const ip = isIP(opts.hostName) !== 0;
  const leaf = await issueCertificate(ca, { commonName: `${opts.hostName}@${stamp}`, usage: 'server', ...(ip ? { ips: [opts.hostName] } : { dns: [opts.hostName] }), notBefore: new Date(Date.now() - 3600_000) });
  const pair = { cert: leaf.cert + ca.certPem, key: leaf.key };
  await mkdir(opts.certDir, { recursive: true, mode: 0o755 });
  await writeFile(certPath, pair.cert, { mode: 0o644 });
  await writeFile(keyPath, pair.key, { mode: 0o600 });
  return pair;
}
