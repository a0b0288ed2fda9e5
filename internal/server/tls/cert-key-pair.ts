/**
 * Reading a certificate/key file pair and checking it is one: the certificate (chain) parses, the
 * key parses, and the key is the certificate's. A pair that fails is never served.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** A checked pair: the PEM text as read and the leaf certificate. */
export interface CertKeyPair {
  readonly certFile: string;
  readonly keyFile: string;
  readonly cert: string;
  readonly key: string;
  readonly leaf: X509Certificate;
}

/** Checks PEM text as a pair (throws with the reason: unparsable, or a key that is not the certificate's). */
export function checkCertKeyPair(certFile: string, keyFile: string, cert: string, key: string): CertKeyPair {
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(cert);
  } catch (err) {
    throw new Error(`failed to parse certificate ${certFile}: ${(err as Error).message}`);
  }
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch (err) {
    throw new Error(`failed to parse private key ${keyFile}: ${(err as Error).message}`);
  }
  if (!leaf.checkPrivateKey(privateKey)) throw new Error(`tls: private key ${keyFile} does not match public key of ${certFile}`);
  return { certFile, keyFile, cert, key, leaf };
}

/** Reads both files and checks them as a pair; throws on a missing file or a bad pair. */
export async function readCertKeyPair(certFile: string, keyFile: string): Promise<CertKeyPair> {
  const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
  return checkCertKeyPair(certFile, keyFile, cert, key);
}
