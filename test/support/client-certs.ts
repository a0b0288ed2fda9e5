/**
 * Test support for client certificates: CAs and certificates (valid, expired, from an
 * intermediate), CA files on disk, and HTTPS calls presenting a certificate (node:https with
 * cert/key), on a keep-alive agent of their own when asked.
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { Agent, request as httpsRequest, type RequestOptions } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { createCertificateAuthority, issueCertificate, type CertificateAuthority, type IssuedCertificate } from '../../internal/server/pki.js';

export { createCertificateAuthority, issueCertificate, type CertificateAuthority, type IssuedCertificate };

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A client certificate for cn in organizations, signed by ca. */
export function clientCert(ca: CertificateAuthority, cn: string, organizations: readonly string[] = [], extra: { notBefore?: Date; notAfter?: Date } = {}): Promise<IssuedCertificate> {
  return issueCertificate(ca, { commonName: cn, organizations, usage: 'client', ...extra });
}

/** A certificate that expired a day ago. */
export function expiredClientCert(ca: CertificateAuthority, cn: string): Promise<IssuedCertificate> {
  const day = 24 * 3600 * 1000;
  return clientCert(ca, cn, [], { notBefore: new Date(Date.now() - 10 * day), notAfter: new Date(Date.now() - day) });
}

/** An intermediate CA signed by ca (its cert field carries only the intermediate's certificate). */
export async function intermediateAuthority(ca: CertificateAuthority, cn: string): Promise<CertificateAuthority> {
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '0a' + Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex'),
    subject: `CN=${cn}`,
    issuer: ca.cert.subject,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 24 * 3600 * 1000),
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey: ca.key,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert),
    ],
  });
  const keyPem = `-----BEGIN PRIVATE KEY-----\n${Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64')}\n-----END PRIVATE KEY-----\n`;
  return { certPem: cert.toString('pem') + '\n', keyPem, cert, key: keys.privateKey };
}

const made: string[] = [];
process.once('exit', () => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A fresh temporary directory, removed when the process exits. */
export async function tempDir(prefix = 'capstan-authn-'): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

/** Writes text to dir/name and returns the path. */
export async function writeTemp(dir: string, name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

/** A response as tests read it. */
export interface CallResult {
  readonly status: number;
  readonly text: string;
  json<T = any>(): T;
}

/** What a call presents. */
export interface CallOptions {
  readonly cert?: IssuedCertificate;
  readonly headers?: Record<string, string | string[]>;
  readonly body?: unknown;
  /** A keep-alive agent to reuse one connection across calls (default: a new connection). */
  readonly agent?: Agent;
}

/** A keep-alive agent with one socket, so successive calls share a TLS connection. */
export function keepAliveAgent(cert?: IssuedCertificate): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1, ...(cert ? { cert: cert.cert, key: cert.key } : {}) });
}

/** One HTTPS call to 127.0.0.1:port trusting serverCA, presenting opts.cert if given. */
export function tlsCall(port: number, serverCA: string, method: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
  const payload = opts.body !== undefined ? Buffer.from(JSON.stringify(opts.body)) : undefined;
  const headers: Record<string, string | string[]> = { ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}), ...opts.headers };
  const ro: RequestOptions = {
    host: '127.0.0.1',
    port,
    path,
    method,
    headers,
    ca: serverCA,
    servername: 'localhost',
    ...(opts.cert ? { cert: opts.cert.cert, key: opts.cert.key } : {}),
    agent: opts.agent ?? false,
  };
  return new Promise((resolve, reject) => {
    const req = httpsRequest(ro, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}
