/**
 * --tls-min-version: kube's version names (Go's tls.VersionTLS1x constants) and the Node
 * SecureVersion each one means.
 */
import type { SecureVersion } from 'node:tls';

const versions = {
  VersionTLS10: 'TLSv1',
  VersionTLS11: 'TLSv1.1',
  VersionTLS12: 'TLSv1.2',
  VersionTLS13: 'TLSv1.3',
} as const satisfies Record<string, SecureVersion>;

/** A --tls-min-version value. */
export type TlsVersionName = keyof typeof versions;

/** kube's values for --tls-min-version, sorted as its --help lists them. */
export const tlsVersionNames: readonly TlsVersionName[] = (Object.keys(versions) as TlsVersionName[]).sort();

/** kube-apiserver's minimum when --tls-min-version is empty (component-base DefaultTLSVersion). */
export const defaultTlsVersion: TlsVersionName = 'VersionTLS12';

/** Reads --tls-min-version: empty is the default; an unknown name throws kube's `unknown tls version "x"`. */
export function parseTlsVersion(name: string): TlsVersionName {
  if (name === '') return defaultTlsVersion;
  if (Object.hasOwn(versions, name)) return name as TlsVersionName;
  throw new Error(`unknown tls version ${JSON.stringify(name)}`);
}

/** The Node minVersion for a version name. */
export function nodeTlsVersion(name: TlsVersionName): SecureVersion {
  return versions[name];
}

/** Whether the version allows handshakes older than TLS 1.2 (OpenSSL 3 then needs security level 0). */
export function belowTls12(name: TlsVersionName): boolean {
  return name === 'VersionTLS10' || name === 'VersionTLS11';
}
