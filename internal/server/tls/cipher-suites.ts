/**
 * --tls-cipher-suites: the Go crypto/tls cipher suite names kube-apiserver accepts (its secure and
 * insecure lists, and the two legacy CHACHA20 aliases), mapped to the OpenSSL names Node's TLS
 * stack takes, and the cipher list a secure context is built with.
 *
 * Go's rules, mirrored here: the list configures TLS 1.0-1.2 only; TLS 1.3 suites are not
 * configurable in Go, so their names are accepted and have no effect, and all three TLS 1.3 suites
 * stay on whatever the list says. Without the flag, Go's default TLS 1.2 suites are used (ECDHE
 * with AES-GCM, ChaCha20-Poly1305 or AES-CBC-SHA; no RSA key exchange, 3DES, RC4 or CBC-SHA256).
 * The server picks the suite in Go's preference order, not the client's.
 */
import { getCiphers } from 'node:tls';

/** One cipher suite as Go names it and as OpenSSL names it. */
interface CipherSuite {
  readonly go: string;
  readonly openssl: string;
  /** In Go's tls.InsecureCipherSuites(). */
  readonly insecure: boolean;
  /** A TLS 1.3 suite (always on, as in Go). */
  readonly tls13?: boolean;
  /** In Go's default TLS 1.2 list. */
  readonly default?: boolean;
}

/** Every suite, in Go's server preference order (cipherSuitesPreferenceOrder, AES hardware case). */
const suites: readonly CipherSuite[] = [
  { go: 'TLS_AES_128_GCM_SHA256', openssl: 'TLS_AES_128_GCM_SHA256', insecure: false, tls13: true },
  { go: 'TLS_AES_256_GCM_SHA384', openssl: 'TLS_AES_256_GCM_SHA384', insecure: false, tls13: true },
  { go: 'TLS_CHACHA20_POLY1305_SHA256', openssl: 'TLS_CHACHA20_POLY1305_SHA256', insecure: false, tls13: true },
  { go: 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', openssl: 'ECDHE-ECDSA-AES128-GCM-SHA256', insecure: false, default: true },
  { go: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', openssl: 'ECDHE-RSA-AES128-GCM-SHA256', insecure: false, default: true },
  { go: 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', openssl: 'ECDHE-ECDSA-AES256-GCM-SHA384', insecure: false, default: true },
  { go: 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', openssl: 'ECDHE-RSA-AES256-GCM-SHA384', insecure: false, default: true },
  { go: 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256', openssl: 'ECDHE-ECDSA-CHACHA20-POLY1305', insecure: false, default: true },
  { go: 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256', openssl: 'ECDHE-RSA-CHACHA20-POLY1305', insecure: false, default: true },
  { go: 'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA', openssl: 'ECDHE-ECDSA-AES128-SHA', insecure: false, default: true },
  { go: 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA', openssl: 'ECDHE-RSA-AES128-SHA', insecure: false, default: true },
  { go: 'TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA', openssl: 'ECDHE-ECDSA-AES256-SHA', insecure: false, default: true },
  { go: 'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA', openssl: 'ECDHE-RSA-AES256-SHA', insecure: false, default: true },
  { go: 'TLS_RSA_WITH_AES_128_GCM_SHA256', openssl: 'AES128-GCM-SHA256', insecure: true },
  { go: 'TLS_RSA_WITH_AES_256_GCM_SHA384', openssl: 'AES256-GCM-SHA384', insecure: true },
  { go: 'TLS_RSA_WITH_AES_128_CBC_SHA', openssl: 'AES128-SHA', insecure: true },
  { go: 'TLS_RSA_WITH_AES_256_CBC_SHA', openssl: 'AES256-SHA', insecure: true },
  { go: 'TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA', openssl: 'ECDHE-RSA-DES-CBC3-SHA', insecure: true },
  { go: 'TLS_RSA_WITH_3DES_EDE_CBC_SHA', openssl: 'DES-CBC3-SHA', insecure: true },
  { go: 'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256', openssl: 'ECDHE-ECDSA-AES128-SHA256', insecure: true },
  { go: 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256', openssl: 'ECDHE-RSA-AES128-SHA256', insecure: true },
  { go: 'TLS_RSA_WITH_AES_128_CBC_SHA256', openssl: 'AES128-SHA256', insecure: true },
  { go: 'TLS_ECDHE_ECDSA_WITH_RC4_128_SHA', openssl: 'ECDHE-ECDSA-RC4-SHA', insecure: true },
  { go: 'TLS_ECDHE_RSA_WITH_RC4_128_SHA', openssl: 'ECDHE-RSA-RC4-SHA', insecure: true },
  { go: 'TLS_RSA_WITH_RC4_128_SHA', openssl: 'RC4-SHA', insecure: true },
];

/** kube keeps these pre-Go-1.14 names working. */
const legacyAliases: Readonly<Record<string, string>> = {
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
};

const byGoName = new Map<string, CipherSuite>(suites.map((s) => [s.go, s]));
for (const [alias, name] of Object.entries(legacyAliases)) byGoName.set(alias, byGoName.get(name) as CipherSuite);

/** The names kube lists as "Preferred values" in --help (sorted, legacy aliases included). */
export const preferredCipherNames: readonly string[] = [...suites.filter((s) => !s.insecure).map((s) => s.go), ...Object.keys(legacyAliases)].sort();

/** The names kube lists as "Insecure values" in --help (sorted). */
export const insecureCipherNames: readonly string[] = suites
  .filter((s) => s.insecure)
  .map((s) => s.go)
  .sort();

/** The OpenSSL names of the suites Node's OpenSSL build offers (lowercase, as tls.getCiphers() gives them). */
const available = new Set(getCiphers());

/**
 * Checks --tls-cipher-suites: every name must be one kube knows (else kube's "Cipher suite X not
 * supported or doesn't exist") and one this server's OpenSSL implements (RC4 and 3DES are absent
 * from OpenSSL 3 builds: refused rather than silently dropped). Returns the names unchanged.
 */
export function validateCipherSuites(names: readonly string[]): readonly string[] {
  for (const name of names) {
    const suite = byGoName.get(name);
    if (!suite) throw new Error(`Cipher suite ${name} not supported or doesn't exist`);
    if (!available.has(suite.openssl.toLowerCase())) {
      throw new Error(`Cipher suite ${name} is not available in this server's TLS library (OpenSSL ${process.versions.openssl})`);
    }
  }
  return names;
}

/**
 * The OpenSSL cipher string for a secure context: the TLS 1.0-1.2 suites named (Go's defaults when
 * names is empty) in Go's preference order, then all three TLS 1.3 suites. names must have passed
 * validateCipherSuites. lowSecurityLevel drops OpenSSL's security level to 0, without which
 * OpenSSL 3 refuses the SHA-1 signatures TLS 1.0 and 1.1 handshakes need (--tls-min-version below
 * VersionTLS12 asks for exactly those handshakes).
 */
export function opensslCipherList(names: readonly string[], lowSecurityLevel = false): string {
  const chosen = new Set(names.map((n) => byGoName.get(n)));
  const tls12 = suites.filter((s) => !s.tls13 && (names.length === 0 ? s.default : chosen.has(s))).map((s) => s.openssl);
  const tls13 = suites.filter((s) => s.tls13).map((s) => s.openssl);
  return [...tls12, ...tls13, ...(lowSecurityLevel ? ['@SECLEVEL=0'] : [])].join(':');
}
