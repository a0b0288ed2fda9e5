/**
 * Issuing a certificate for an approved CSR with kcm's signing policy: the request's subject and
 * SANs, key usages from spec.usages, not a CA; lifetime --cluster-signing-duration, or
 * spec.expirationSeconds when shorter (at least 10 minutes); backdated 5 minutes; never past the
 * CA's own expiry (and refused once the CA expired).
 */
import 'reflect-metadata';
import { createPrivateKey, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { ParsedRequest } from './request.js';

/** A CA ready to sign. */
export interface SigningAuthority {
  readonly cert: x509.X509Certificate;
  readonly key: webcrypto.CryptoKey;
  readonly algorithm: { readonly name: string; readonly hash: string; readonly namedCurve?: string };
}

const backdateMs = 5 * 60_000;
const shortMs = 8 * 3_600_000;
const minimumMs = 2 * backdateMs;

/** Loads a CA from PEM (RSA or ECDSA key in PKCS#1, SEC1 or PKCS#8). */
export async function loadSigningAuthority(certPem: string, keyPem: string): Promise<SigningAuthority> {
  const nodeKey = createPrivateKey(keyPem);
  const pkcs8 = nodeKey.export({ format: 'der', type: 'pkcs8' });
  let algorithm: SigningAuthority['algorithm'];
  if (nodeKey.asymmetricKeyType === 'ec') {
    const curve = nodeKey.asymmetricKeyDetails?.namedCurve;
    const namedCurve = curve === 'prime256v1' ? 'P-256' : curve === 'secp384r1' ? 'P-384' : curve === 'secp521r1' ? 'P-521' : undefined;
    if (!namedCurve) throw new Error(`unsupported ECDSA curve ${String(curve)}`);
    algorithm = { name: 'ECDSA', namedCurve, hash: namedCurve === 'P-256' ? 'SHA-256' : namedCurve === 'P-384' ? 'SHA-384' : 'SHA-512' };
  } else {
    algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  }
  const importAlg = algorithm.name === 'ECDSA' ? { name: 'ECDSA', namedCurve: algorithm.namedCurve as string } : { name: algorithm.name, hash: algorithm.hash };
  const key = await webcrypto.subtle.importKey('pkcs8', pkcs8, importAlg, false, ['sign']);
  const block = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/.exec(certPem);
  if (!block) throw new Error('no CERTIFICATE block');
  return { cert: new x509.X509Certificate(block[0]), key, algorithm };
}

/** kcm's duration(): the requested lifetime honoured when shorter than the maximum, never under 10 minutes. */
export function certificateLifetimeMs(maxMs: number, expirationSeconds: number | undefined): number {
  if (expirationSeconds === undefined || expirationSeconds === null) return maxMs;
  const requested = expirationSeconds * 1000;
  if (requested > maxMs) return maxMs;
  if (requested < minimumMs) return minimumMs;
  return requested;
}

const usageFlags: Readonly<Record<string, number>> = {
  'digital signature': x509.KeyUsageFlags.digitalSignature,
  'content commitment': x509.KeyUsageFlags.nonRepudiation,
  'key encipherment': x509.KeyUsageFlags.keyEncipherment,
  'key agreement': x509.KeyUsageFlags.keyAgreement,
  'data encipherment': x509.KeyUsageFlags.dataEncipherment,
  'cert sign': x509.KeyUsageFlags.keyCertSign,
  'crl sign': x509.KeyUsageFlags.cRLSign,
  'encipher only': x509.KeyUsageFlags.encipherOnly,
  'decipher only': x509.KeyUsageFlags.decipherOnly,
};

const extUsages: Readonly<Record<string, string>> = {
  'server auth': x509.ExtendedKeyUsage.serverAuth,
  'client auth': x509.ExtendedKeyUsage.clientAuth,
  'code signing': x509.ExtendedKeyUsage.codeSigning,
  'email protection': x509.ExtendedKeyUsage.emailProtection,
  'timestamping': x509.ExtendedKeyUsage.timeStamping,
  'ocsp signing': x509.ExtendedKeyUsage.ocspSigning,
};

/** Signs req's certificate (PEM); throws kcm's message when the CA cannot sign it. */
export async function issueFromRequest(ca: SigningAuthority, req: ParsedRequest, usages: ReadonlySet<string>, lifetimeMs: number, now = new Date()): Promise<string> {
  const caNotAfter = ca.cert.notAfter;
  const notBefore = new Date(now.getTime() - backdateMs);
  let notAfter = lifetimeMs < shortMs ? new Date(now.getTime() + lifetimeMs) : new Date(notBefore.getTime() + lifetimeMs);
  if (notAfter >= caNotAfter) notAfter = caNotAfter;
  if (notBefore >= caNotAfter) throw new Error(`the signer has expired: NotAfter=${caNotAfter.toISOString()}`);
  if (now >= caNotAfter) throw new Error(`refusing to sign a certificate that expired in the past: NotAfter=${caNotAfter.toISOString()}`);
  let keyUsage = 0;
  const ext: string[] = [];
  for (const u of usages) {
    if (usageFlags[u] !== undefined) keyUsage |= usageFlags[u] as number;
    else if (extUsages[u] !== undefined) ext.push(extUsages[u] as string);
  }
  const sans = [
    ...req.dnsNames.map((value) => ({ type: 'dns' as const, value })),
    ...req.ips.map((value) => ({ type: 'ip' as const, value })),
    ...req.emails.map((value) => ({ type: 'email' as const, value })),
    ...req.uris.map((value) => ({ type: 'url' as const, value })),
  ];
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16))).toString('hex').replace(/^[89a-f]/, '1'),
    subject: req.csr.subjectName,
    issuer: ca.cert.subjectName,
    notBefore,
    notAfter,
    signingAlgorithm: ca.algorithm,
    publicKey: req.csr.publicKey,
    signingKey: ca.key,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      ...(keyUsage ? [new x509.KeyUsagesExtension(keyUsage, true)] : []),
      ...(ext.length > 0 ? [new x509.ExtendedKeyUsageExtension(ext)] : []),
      ...(sans.length > 0 ? [new x509.SubjectAlternativeNameExtension(sans)] : []),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert),
    ],
  });
  return cert.toString('pem') + '\n';
}
