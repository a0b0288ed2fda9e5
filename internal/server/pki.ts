/**
 * Certificates and keys made here: a CA, and certificates it signs for servers (the generated
 * serving certificate) and clients (the admin certificate `make run` writes, test identities).
 * ECDSA P-256 with SHA-256, PEM out. For client certificates kube reads the user from the CN and
 * the groups from the O entries.
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A CA able to sign: its certificate and key, in PEM and in the form the signer needs. */
export interface CertificateAuthority {
  readonly certPem: string;
  readonly keyPem: string;
  readonly cert: x509.X509Certificate;
  readonly key: webcrypto.CryptoKey;
}

/** A certificate with its private key, in PEM. */
export interface IssuedCertificate {
  readonly cert: string;
  readonly key: string;
}

/** What to put in a certificate a CA signs. */
export interface CertificateRequest {
  readonly commonName: string;
  /** O entries: a client's groups. */
  readonly organizations?: readonly string[];
  readonly usage: 'client' | 'server' | 'both';
  readonly dns?: readonly string[];
  readonly ips?: readonly string[];
  readonly notBefore?: Date;
  readonly notAfter?: Date;
}

function serial(): string {
  return Buffer.from(webcrypto.getRandomValues(new Uint8Array(16))).toString('hex').replace(/^[89a-f]/, '1');
}

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN ${label}-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END ${label}-----\n`;
}

/** RFC 4514 escaping of one attribute value. */
function escapeDN(v: string): string {
  return v.replace(/([,+"\\<>;=])/g, '\\$1').replace(/^([ #])/, '\\$1').replace(/ $/, '\\ ');
}

function subjectOf(cn: string, organizations: readonly string[] = []): string {
  return [...organizations.map((o) => `O=${escapeDN(o)}`), `CN=${escapeDN(cn)}`].join(', ');
}

/** Creates a self-signed CA valid for validDays (from a minute ago). */
export async function createCertificateAuthority(commonName: string, validDays = 365): Promise<CertificateAuthority> {
  const now = Date.now();
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${escapeDN(commonName)}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + validDays * 24 * 3600 * 1000),
    signingAlgorithm: algorithm,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const keyPem = pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { certPem: cert.toString('pem') + '\n', keyPem, cert, key: keys.privateKey };
}

/** Loads a CA from PEM (an ECDSA P-256 key in PKCS#8, as createCertificateAuthority writes). */
export async function loadCertificateAuthority(certPem: string, keyPem: string): Promise<CertificateAuthority> {
  const der = Buffer.from(keyPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const key = await webcrypto.subtle.importKey('pkcs8', der, algorithm, true, ['sign']);
  return { certPem, keyPem, cert: new x509.X509Certificate(certPem), key };
}

/** Issues a certificate signed by ca (valid for a year from a minute ago unless given). */
export async function issueCertificate(ca: CertificateAuthority, req: CertificateRequest): Promise<IssuedCertificate> {
  const now = Date.now();
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const usages =
    req.usage === 'client'
      ? [x509.ExtendedKeyUsage.clientAuth]
      : req.usage === 'server'
        ? [x509.ExtendedKeyUsage.serverAuth]
        : [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth];
  const sans = [...(req.dns ?? []).map((value) => ({ type: 'dns' as const, value })), ...(req.ips ?? []).map((value) => ({ type: 'ip' as const, value }))];
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: subjectOf(req.commonName, req.organizations),
    issuer: ca.cert.subject,
    notBefore: req.notBefore ?? new Date(now - 60_000),
    notAfter: req.notAfter ?? new Date(now + 365 * 24 * 3600 * 1000),
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey: ca.key,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension(usages),
      ...(sans.length > 0 ? [new x509.SubjectAlternativeNameExtension(sans)] : []),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert),
    ],
  });
  return { cert: cert.toString('pem') + '\n', key: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)) };
}
