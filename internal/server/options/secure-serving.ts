/**
 * The TLS flags of secure serving (kube-apiserver's SecureServingOptions): where the serving
 * certificate comes from (--cert-dir or --tls-cert-file/--tls-private-key-file), certificates by
 * server name (--tls-sni-cert-key), the minimum TLS version and the cipher suites. --secure-port
 * and --bind-address stay in ServerOptions' core (the listener and the controllers read them).
 * internal/server/tls/ serves what is validated here.
 */
import { insecureCipherNames, preferredCipherNames, validateCipherSuites } from '../tls/cipher-suites.js';
import { parseNamedCertKey, type NamedCertKey } from '../tls/named-cert-key.js';
import { parseTlsVersion, tlsVersionNames, type TlsVersionName } from '../tls/tls-version.js';
import { FlagError, stringSliceFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated secure serving options. */
export interface SecureServingOptions {
  /** --cert-dir: where the generated CA and serving pair are kept (unused with --tls-cert-file). */
  readonly certDir: string;
  readonly tlsCertFile?: string;
  readonly tlsPrivateKeyFile?: string;
  /** --tls-sni-cert-key, in flag order (the first given wins a name several claim). */
  readonly sniCertKeys: readonly NamedCertKey[];
  /** --tls-min-version (VersionTLS12 when not given, as in kube). */
  readonly minTLSVersion: TlsVersionName;
  /** --tls-cipher-suites as Go names; empty: Go's default suites. */
  readonly cipherSuites: readonly string[];
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly secureServing?: SecureServingOptions;
  }
}

/** The defaults of every secure serving flag. */
export const defaultSecureServingOptions: SecureServingOptions = {
  certDir: '/var/run/kubernetes',
  sniCertKeys: [],
  minTLSVersion: 'VersionTLS12',
  cipherSuites: [],
};

function sniCertKeys(values: unknown): NamedCertKey[] {
  const list = values === undefined ? [] : Array.isArray(values) ? values.map(String) : [String(values)];
  return list.map((v) => {
    try {
      return parseNamedCertKey(v);
    } catch (err) {
      throw new FlagError(`invalid argument ${JSON.stringify(v)} for "--tls-sni-cert-key" flag: ${(err as Error).message}`);
    }
  });
}

/** The secure serving flag group. */
export const secureServingFlags: FlagGroup<'secureServing'> = {
  repeatable: ['tls-sni-cert-key', 'tls-cipher-suites'],
  register(y) {
    y.option('cert-dir', {
      type: 'string',
      default: defaultSecureServingOptions.certDir,
      describe: 'The directory where the TLS certs are located. If --tls-cert-file and --tls-private-key-file are provided, this flag will be ignored.',
    })
      .option('tls-cert-file', {
        type: 'string',
        describe:
          'File containing the default x509 Certificate for HTTPS. (CA cert, if any, concatenated after server cert). If HTTPS serving is enabled, and --tls-cert-file and --tls-private-key-file are not provided, a self-signed certificate and key are generated for the public address and saved to the directory specified by --cert-dir. Reloaded when the file changes.',
      })
      .option('tls-private-key-file', { type: 'string', describe: 'File containing the default x509 private key matching --tls-cert-file.' })
      .option('tls-sni-cert-key', {
        type: 'string',
        describe:
          'A pair of x509 certificate and private key file paths, optionally suffixed with a list of domain patterns which are fully qualified domain names, possibly with prefixed wildcard segments. The domain patterns also allow IP addresses, but IPs should only be used if the apiserver has visibility to the IP address requested by a client. If no domain patterns are provided, the names of the certificate are extracted. Non-wildcard matches trump over wildcard matches, explicit domain patterns trump over extracted names. For multiple key/certificate pairs, use the --tls-sni-cert-key multiple times. Examples: "example.crt,example.key" or "foo.crt,foo.key:*.foo.com,foo.com".',
      })
      .option('tls-min-version', { type: 'string', describe: `Minimum TLS version supported. Possible values: ${tlsVersionNames.join(', ')}` })
      .option('tls-cipher-suites', {
        type: 'string',
        describe: `Comma-separated list of cipher suites for the server. If omitted, the default Go cipher suites will be used. \nPreferred values: ${preferredCipherNames.join(', ')}. \nInsecure values: ${insecureCipherNames.join(', ')}.`,
      });
  },
  validate(p) {
    const certFile = (p['tls-cert-file'] as string | undefined) || undefined;
    const keyFile = (p['tls-private-key-file'] as string | undefined) || undefined;
    if (Boolean(certFile) !== Boolean(keyFile)) throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
    let minTLSVersion: TlsVersionName;
    let cipherSuites: readonly string[];
    try {
      minTLSVersion = parseTlsVersion(String(p['tls-min-version'] ?? ''));
      cipherSuites = validateCipherSuites(stringSliceFlag('tls-cipher-suites', p['tls-cipher-suites']));
    } catch (err) {
      if (err instanceof FlagError) throw err;
      throw new FlagError((err as Error).message);
    }
    return {
      secureServing: {
        certDir: String(p['cert-dir'] ?? defaultSecureServingOptions.certDir),
        ...(certFile ? { tlsCertFile: certFile } : {}),
        ...(keyFile ? { tlsPrivateKeyFile: keyFile } : {}),
        sniCertKeys: sniCertKeys(p['tls-sni-cert-key']),
        minTLSVersion,
        cipherSuites,
      },
    };
  },
};
