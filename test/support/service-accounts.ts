/**
 * Test support for service account tokens: a signing key written to a temporary file, the
 * kube-apiserver flags that use it, and decoding of token segments.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The issuer the test servers use (kube's usual in-cluster issuer). */
export const testIssuer = 'https://kubernetes.default.svc.cluster.local';

/** A key pair for signing test tokens. */
export interface TestSigningKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** PKCS#1 PEM ("RSA PRIVATE KEY") or SEC 1 ("EC PRIVATE KEY"). */
  readonly privatePem: string;
  readonly file: string;
}

/** Generates an RSA (2048) or ECDSA P-256 key and writes its PEM into a fresh temporary directory. */
export async function writeSigningKey(type: 'rsa' | 'ec' = 'rsa'): Promise<TestSigningKey> {
  const pair = type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privatePem = pair.privateKey.export({ type: type === 'rsa' ? 'pkcs1' : 'sec1', format: 'pem' }) as string;
  const dir = await mkdtemp(join(tmpdir(), 'capstan-sa-'));
  const file = join(dir, 'sa.key');
  await writeFile(file, privatePem, { mode: 0o600 });
  return { privateKey: pair.privateKey, publicKey: pair.publicKey, privatePem, file };
}

/** The flags that make a server issue and accept tokens signed with key. */
export function serviceAccountFlags(key: TestSigningKey, extra: readonly string[] = []): string[] {
  return [`--service-account-issuer=${testIssuer}`, `--service-account-signing-key-file=${key.file}`, `--service-account-key-file=${key.file}`, ...extra];
}

/** The decoded header and payload of a compact JWT (not verified). */
export function decodeToken(token: string): { header: Record<string, any>; claims: Record<string, any> } {
  const [h, p] = token.split('.') as [string, string];
  return { header: JSON.parse(Buffer.from(h, 'base64url').toString('utf8')), claims: JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) };
}
