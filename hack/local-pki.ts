/**
 * The credentials `make run` keeps in .local/pki and reuses on every start: a client CA (the
 * server's --client-ca-file), the admin's client certificate (CN=kubernetes-admin,
 * O=system:masters, as kubeadm's admin.conf), and the service account signing key pair. Users are
 * added with hack/add-user.ts, which signs a client certificate with the same CA.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCertificateAuthority, issueCertificate, loadCertificateAuthority, type CertificateAuthority, type IssuedCertificate } from '../internal/server/pki.js';

/** Where the files are. */
export interface LocalPki {
  readonly dir: string;
  readonly caCertFile: string;
  readonly caKeyFile: string;
  readonly adminCertFile: string;
  readonly adminKeyFile: string;
  readonly serviceAccountKeyFile: string;
  readonly serviceAccountPublicKeyFile: string;
}

/** The file layout under dir. */
export function localPkiPaths(dir: string): LocalPki {
  return {
    dir,
    caCertFile: join(dir, 'client-ca.crt'),
    caKeyFile: join(dir, 'client-ca.key'),
    adminCertFile: join(dir, 'admin.crt'),
    adminKeyFile: join(dir, 'admin.key'),
    serviceAccountKeyFile: join(dir, 'sa.key'),
    serviceAccountPublicKeyFile: join(dir, 'sa.pub'),
  };
}

async function readOptional(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch(() => undefined);
}

/** The client CA of dir, created (with its admin certificate) when missing. */
export async function ensureClientCA(p: LocalPki): Promise<CertificateAuthority> {
  await mkdir(p.dir, { recursive: true, mode: 0o700 });
  const [cert, key] = await Promise.all([readOptional(p.caCertFile), readOptional(p.caKeyFile)]);
  if (cert && key) return loadCertificateAuthority(cert, key);
  const ca = await createCertificateAuthority('capstan-client-ca', 10 * 365);
  await writeFile(p.caKeyFile, ca.keyPem, { mode: 0o600 });
  await writeFile(p.caCertFile, ca.certPem, { mode: 0o644 });
  return ca;
}

/** Every file of dir, created when missing; returns the admin's certificate and key. */
export async function ensureLocalPki(p: LocalPki): Promise<IssuedCertificate> {
  const ca = await ensureClientCA(p);
  let admin: IssuedCertificate | undefined;
  const [cert, key] = await Promise.all([readOptional(p.adminCertFile), readOptional(p.adminKeyFile)]);
  if (cert && key) admin = { cert, key };
  else {
    admin = await issueCertificate(ca, { commonName: 'kubernetes-admin', organizations: ['system:masters'], usage: 'client' });
    await writeFile(p.adminKeyFile, admin.key, { mode: 0o600 });
    await writeFile(p.adminCertFile, admin.cert, { mode: 0o644 });
  }
  if (!(await readOptional(p.serviceAccountKeyFile)) || !(await readOptional(p.serviceAccountPublicKeyFile))) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    await writeFile(p.serviceAccountKeyFile, pair.privateKey, { mode: 0o600 });
    await writeFile(p.serviceAccountPublicKeyFile, pair.publicKey, { mode: 0o644 });
  }
  return admin;
}
