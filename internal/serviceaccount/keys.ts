/**
 * Service account keys as kube reads them (client-go's keyutil): PEM files holding RSA or ECDSA
 * public keys, private keys (whose public half verifies) or certificates; the key id kube puts in
 * "kid" (base64url of the SHA-256 of the key's PKIX DER); and the JWS algorithm each key signs with.
 */
import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** The algorithms service account tokens are signed and verified with. */
export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

/** A verification key with its key id and algorithm. */
export interface PublicKeyEntry {
  readonly key: KeyObject;
  readonly kid: string;
  readonly alg: SigningAlgorithm;
}

const curveAlgorithms: Readonly<Record<string, SigningAlgorithm>> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** The algorithm a key signs with: RS256 for RSA, ES256/384/512 by curve; undefined for any other key. */
export function algorithmOf(key: KeyObject): SigningAlgorithm | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') return curveAlgorithms[key.asymmetricKeyDetails?.namedCurve ?? ''];
  return undefined;
}

/** kube's key id of a key (a private key's public half): unpadded base64url of SHA-256 over its PKIX (SPKI) DER. */
export function keyIdOf(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

/** The PEM blocks of a file, each with its type ("PUBLIC KEY", "EC PRIVATE KEY", ...). */
export function pemBlocks(text: string): Array<{ type: string; pem: string }> {
  const out: Array<{ type: string; pem: string }> = [];
  const re = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ type: m[1] as string, pem: m[0] });
  return out;
}

function tryKey(make: () => KeyObject): KeyObject | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}

/** The private key of one PEM block (PKCS#1, SEC 1 or unencrypted PKCS#8), RSA or ECDSA only. */
function privateKeyOfBlock(block: { type: string; pem: string }): KeyObject | undefined {
  if (block.type !== 'RSA PRIVATE KEY' && block.type !== 'EC PRIVATE KEY' && block.type !== 'PRIVATE KEY') return undefined;
  const key = tryKey(() => createPrivateKey(block.pem));
  return key && algorithmOf(key) ? key : undefined;
}

function publicKeyOfBlock(block: { type: string; pem: string }): KeyObject | undefined {
  const priv = privateKeyOfBlock(block);
  if (priv) return createPublicKey(priv);
  let key: KeyObject | undefined;
  if (block.type === 'CERTIFICATE') key = tryKey(() => new X509Certificate(block.pem).publicKey);
  else if (block.type === 'PUBLIC KEY' || block.type === 'RSA PUBLIC KEY') key = tryKey(() => createPublicKey(block.pem));
  return key && algorithmOf(key) ? key : undefined;
}

/**
 * Every RSA and ECDSA public key in PEM text (other blocks, such as "EC PARAMETERS", are
 * tolerated); throws kube's message when there is none.
 */
export function publicKeysFromPem(text: string): KeyObject[] {
  const keys = pemBlocks(text)
    .map(publicKeyOfBlock)
    .filter((k): k is KeyObject => k !== undefined);
  if (keys.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return keys;
}

/** The first RSA or ECDSA private key in PEM text; throws kube's message when there is none. */
export function privateKeyFromPem(text: string): KeyObject {
  for (const block of pemBlocks(text)) {
    const key = privateKeyOfBlock(block);
    if (key) return key;
  }
  throw new Error('data does not contain a valid RSA or ECDSA private key');
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new Error(`open ${file}: no such file or directory`);
    if (e.code === 'EACCES') throw new Error(`open ${file}: permission denied`);
    throw err;
  }
}

/** keyutil.PublicKeysFromFile: the public keys of a file, with kube's error text. */
export async function publicKeysFromFile(file: string): Promise<KeyObject[]> {
  const text = await readText(file);
  try {
    return publicKeysFromPem(text);
  } catch (err) {
    throw new Error(`error reading public key file ${file}: ${(err as Error).message}`);
  }
}

/** keyutil.PrivateKeyFromFile: the private key of a file, with kube's error text. */
export async function privateKeyFromFile(file: string): Promise<KeyObject> {
  const text = await readText(file);
  try {
    return privateKeyFromPem(text);
  } catch (err) {
    throw new Error(`error reading private key file ${file}: ${(err as Error).message}`);
  }
}

/** A verification entry for a public key (RSA or ECDSA; callers filter with algorithmOf first). */
export function publicKeyEntry(key: KeyObject): PublicKeyEntry {
  const alg = algorithmOf(key);
  if (!alg) throw new Error(`unsupported key type ${key.asymmetricKeyType ?? 'unknown'}`);
  return { key, kid: keyIdOf(key), alg };
}
