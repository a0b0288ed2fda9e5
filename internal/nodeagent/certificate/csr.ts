/**
 * The node agent's side of a CertificateSigningRequest (kubelet's csr.RequestCertificate and
 * WaitForCertificate): an ECDSA P-256 key, a PKCS#10 request for a subject, the CSR object named
 * after a digest of key, subject and usages (so a restart re-finds its own request), and the wait
 * for approval and the issued certificate, or the denial or failure with its reason and message.
 */
import { createHash, webcrypto } from 'node:crypto';
import type { KubeObject } from '../../../api/meta/types.js';
import { ApiError, type ApiClient } from '../client/api-client.js';

let x509Lib: Promise<typeof import('@peculiar/x509')> | undefined;

/**
 * @peculiar/x509, loaded on first use: it (with its ASN.1 schemas) costs the node agent about
 * 15 MB resident, and most agents never make a CSR (their certificates come from files).
 */
function loadX509(): Promise<typeof import('@peculiar/x509')> {
  x509Lib ??= (async () => {
    await import('reflect-metadata');
    const x509 = await import('@peculiar/x509');
    x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
    return x509;
  })();
  return x509Lib;
}

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** The signer of kubelet client certificates. */
export const kubeletClientSigner = 'kubernetes.io/kube-apiserver-client-kubelet';

/** kubelet's client certificate usages for an ECDSA key (RSA keys add key encipherment). */
export const kubeletClientUsages: readonly string[] = ['digital signature', 'client auth'];

/** A private key in PKCS#8 PEM. */
export async function generateKeyPem(): Promise<string> {
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const b64 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN PRIVATE KEY-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END PRIVATE KEY-----\n`;
}

async function keyPair(keyPem: string): Promise<webcrypto.CryptoKeyPair> {
  const der = Buffer.from(keyPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, algorithm, true, ['sign']);
  const jwk = await webcrypto.subtle.exportKey('jwk', privateKey);
  const publicKey = await webcrypto.subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, ext: true } as webcrypto.JsonWebKey, algorithm, true, ['verify']);
  return { privateKey, publicKey };
}

/** What the certificate is for. */
export interface CertificateSubject {
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ips?: readonly string[];
}

/** A PEM CERTIFICATE REQUEST for subject, signed with keyPem. */
export async function createCsrPem(keyPem: string, subject: CertificateSubject): Promise<{ pem: string; publicKeyDer: Buffer }> {
  const x509 = await loadX509();
  const keys = await keyPair(keyPem);
  const sans = [...(subject.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })), ...(subject.ips ?? []).map((value) => ({ type: 'ip' as const, value }))];
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [...subject.organizations.map((o) => `O=${o}`), `CN=${subject.commonName}`].join(', '),
    keys,
    signingAlgorithm: algorithm,
    ...(sans.length > 0 ? { extensions: [new x509.SubjectAlternativeNameExtension(sans)] } : {}),
  });
  return { pem: csr.toString('pem') + '\n', publicKeyDer: Buffer.from(await webcrypto.subtle.exportKey('spki', keys.publicKey)) };
}

/** kubelet's digestedName: "node-csr-" and a digest of the public key, subject and usages. */
export function csrName(publicKeyDer: Buffer, subject: CertificateSubject, usages: readonly string[]): string {
  const h = createHash('sha512');
  const write = (s: string | Buffer): void => {
    h.update(Buffer.from(String(Buffer.byteLength(s)) + '|'));
    h.update(s);
  };
  write(publicKeyDer);
  write(subject.commonName);
  for (const o of subject.organizations) write(o);
  for (const u of usages) write(u);
  return `node-csr-${h.digest('base64url')}`;
}

/** Options of one request. */
export interface RequestCertificateOptions {
  readonly signerName: string;
  readonly usages: readonly string[];
  readonly expirationSeconds?: number;
  readonly signal?: AbortSignal;
  /** How long to wait for the certificate (kubelet: an hour). */
  readonly timeoutMs?: number;
  /**
   * Create the CSR with this metadata.generateName instead of the digested name (kubelet's serving
   * certificate manager names none: "csr-"); such a request is never re-found after a restart.
   */
  readonly generateName?: string;
}

function condition(csr: KubeObject, type: string): Record<string, string> | undefined {
  const conds = ((csr.status as Record<string, unknown> | undefined)?.conditions ?? []) as Record<string, string>[];
  return conds.find((c) => c.type === type && (c.status ?? 'True') === 'True');
}

/**
 * Creates (or finds, after a restart) the CSR for keyPem and subject and waits until it is issued:
 * resolves with the certificate PEM; rejects when it is denied or failed (kubelet's messages), on
 * timeout or when signal aborts.
 */
export async function requestCertificate(client: ApiClient, keyPem: string, subject: CertificateSubject, opts: RequestCertificateOptions): Promise<string> {
  const { pem, publicKeyDer } = await createCsrPem(keyPem, subject);
  let name = csrName(publicKeyDer, subject, opts.usages);
  const path = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
  let csr: KubeObject;
  try {
    csr = await client.create(path, {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: opts.generateName ? { generateName: opts.generateName } : { name },
      spec: {
        request: Buffer.from(pem).toString('base64'),
        signerName: opts.signerName,
        usages: opts.usages,
        ...(opts.expirationSeconds ? { expirationSeconds: opts.expirationSeconds } : {}),
      },
    }, opts.signal ? { signal: opts.signal } : {});
    name = csr.metadata.name ?? name;
  } catch (err) {
    if (opts.generateName || !(err instanceof ApiError && err.code === 409)) throw new Error(`cannot create certificate signing request: ${err instanceof ApiError ? err.message : (err as Error).message}`);
    csr = await client.get(`${path}/${name}`, opts.signal ? { signal: opts.signal } : {});
    const spec = csr.spec as Record<string, unknown>;
    if (spec.request !== Buffer.from(pem).toString('base64')) throw new Error(`retrieved csr is not compatible: the request of ${name} differs`);
  }
  const deadline = Date.now() + (opts.timeoutMs ?? 3_600_000);
  const uid = csr.metadata.uid;
  for (;;) {
    const denied = condition(csr, 'Denied');
    if (denied) throw new Error(`certificate signing request is denied, reason: ${denied.reason ?? ''}, message: ${denied.message ?? ''}`);
    const failed = condition(csr, 'Failed');
    if (failed) throw new Error(`certificate signing request failed, reason: ${failed.reason ?? ''}, message: ${failed.message ?? ''}`);
    const cert = (csr.status as Record<string, unknown> | undefined)?.certificate;
    if (condition(csr, 'Approved') && typeof cert === 'string' && cert.length > 0) return Buffer.from(cert, 'base64').toString('utf8');
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    if (opts.signal?.aborted) throw opts.signal.reason;
    // A watch would be as good; a short poll keeps this independent of watch permissions (the
    // bootstrapper's role may list and watch, a node renewing its own certificate may only get).
    await new Promise((resolve) => setTimeout(resolve, 500));
    csr = await client.get(`${path}/${name}`, opts.signal ? { signal: opts.signal } : {});
    if (uid && csr.metadata.uid !== uid) throw new Error(`csr ${name} was deleted and recreated while waiting`);
  }
}
