/**
 * kube-controller-manager's certificate signing flags, for the CSR signing loop Capstan runs inside
 * the API server: --cluster-signing-cert-file/--cluster-signing-key-file (one CA for every signer) or
 * a pair per signer (--cluster-signing-kubelet-client-*, -kubelet-serving-*, -kube-apiserver-client-*),
 * and --cluster-signing-duration. The files are read and checked at start: a CA that cannot sign is
 * refused, never ignored. Without any, the signing loop is off (kcm skips it without its CA too).
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { formatGoDuration } from './duration.js';
import { durationFlag, FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** One signing CA as read from its files. */
export interface SigningAuthorityFiles {
  readonly certFile: string;
  readonly keyFile: string;
  readonly certPem: string;
  readonly keyPem: string;
}

/** Validated signing options. */
export interface CsrSigningOptions {
  /** The CA of each signer name that has one. */
  readonly signers: ReadonlyMap<string, SigningAuthorityFiles>;
  /** --cluster-signing-duration in ms. */
  readonly durationMs: number;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly csrSigning?: CsrSigningOptions;
  }
}

/** The defaults: no CA (signing off), a year. */
export const defaultCsrSigningOptions: CsrSigningOptions = { signers: new Map(), durationMs: 8760 * 3_600_000 };

const specific = [
  ['kubelet-serving', 'kubernetes.io/kubelet-serving'],
  ['kubelet-client', 'kubernetes.io/kube-apiserver-client-kubelet'],
  ['kube-apiserver-client', 'kubernetes.io/kube-apiserver-client'],
] as const;

function readAuthority(certFlag: string, certFile: string, keyFlag: string, keyFile: string): SigningAuthorityFiles {
  let certPem: string;
  let keyPem: string;
  try {
    certPem = readFileSync(certFile, 'utf8');
  } catch (err) {
    throw new FlagError(`--${certFlag}: error reading CA cert file ${JSON.stringify(certFile)}: ${(err as Error).message}`);
  }
  try {
    keyPem = readFileSync(keyFile, 'utf8');
  } catch (err) {
    throw new FlagError(`--${keyFlag}: error reading CA key file ${JSON.stringify(keyFile)}: ${(err as Error).message}`);
  }
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch (err) {
    throw new FlagError(`--${certFlag}: error reading CA cert file ${JSON.stringify(certFile)}: ${(err as Error).message}`);
  }
  try {
    const key = createPrivateKey(keyPem);
    if (key.asymmetricKeyType !== 'ec' && key.asymmetricKeyType !== 'rsa') throw new Error(`unsupported key type ${key.asymmetricKeyType}: only RSA and ECDSA keys can sign`);
    if (!cert.checkPrivateKey(key)) throw new Error('the private key does not match the certificate');
  } catch (err) {
    throw new FlagError(`--${keyFlag}: error reading CA key file ${JSON.stringify(keyFile)}: ${(err as Error).message}`);
  }
  if (!cert.ca) throw new FlagError(`--${certFlag}: ${JSON.stringify(certFile)} is not a CA certificate (basicConstraints CA:TRUE)`);
  return { certFile, keyFile, certPem, keyPem };
}

/** The signing flag group. */
export const csrSigningFlags: FlagGroup<'csrSigning'> = {
  register(y) {
    y.option('cluster-signing-cert-file', { type: 'string', describe: 'Filename containing a PEM-encoded X509 CA certificate used to issue cluster-scoped certificates.  If specified, no more specific --cluster-signing-* flag may be specified. (kube-controller-manager\'s flag: Capstan signs CertificateSigningRequests in the API server.)' });
    y.option('cluster-signing-key-file', { type: 'string', describe: 'Filename containing a PEM-encoded RSA or ECDSA private key used to sign cluster-scoped certificates.  If specified, no more specific --cluster-signing-* flag may be specified.' });
    y.option('cluster-signing-duration', { type: 'string', default: '8760h0m0s', describe: 'The max length of duration signed certificates will be given.  Individual CSRs may request shorter certs by setting spec.expirationSeconds.' });
    for (const [flag, signer] of specific) {
      y.option(`cluster-signing-${flag}-cert-file`, { type: 'string', describe: `Filename containing a PEM-encoded X509 CA certificate used to issue certificates for the ${signer} signer.  If specified, --cluster-signing-{cert,key}-file must not be set.` });
      y.option(`cluster-signing-${flag}-key-file`, { type: 'string', describe: `Filename containing a PEM-encoded RSA or ECDSA private key used to sign certificates for the ${signer} signer.  If specified, --cluster-signing-{cert,key}-file must not be set.` });
    }
  },
  validate(p) {
    const str = (name: string): string => (p[name] === undefined ? '' : String(p[name]));
    const durationMs = durationFlag('cluster-signing-duration', p['cluster-signing-duration'] ?? '8760h0m0s');
    if (durationMs <= 0) throw new FlagError(`--cluster-signing-duration ${formatGoDuration(durationMs)} must be greater than 0`);
    const generalCert = str('cluster-signing-cert-file');
    const generalKey = str('cluster-signing-key-file');
    if (Boolean(generalCert) !== Boolean(generalKey)) throw new FlagError('--cluster-signing-cert-file and --cluster-signing-key-file must be given together');
    const specificGiven = specific.some(([flag]) => str(`cluster-signing-${flag}-cert-file`) || str(`cluster-signing-${flag}-key-file`));
    if (generalCert && specificGiven) throw new FlagError('cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time');
    const signers = new Map<string, SigningAuthorityFiles>();
    if (generalCert) {
      const ca = readAuthority('cluster-signing-cert-file', generalCert, 'cluster-signing-key-file', generalKey);
      for (const [, signer] of specific) signers.set(signer, ca);
    }
    for (const [flag, signer] of specific) {
      const cert = str(`cluster-signing-${flag}-cert-file`);
      const key = str(`cluster-signing-${flag}-key-file`);
      if (Boolean(cert) !== Boolean(key)) throw new FlagError(`--cluster-signing-${flag}-cert-file and --cluster-signing-${flag}-key-file must be given together`);
      if (cert) signers.set(signer, readAuthority(`cluster-signing-${flag}-cert-file`, cert, `cluster-signing-${flag}-key-file`, key));
    }
    return { csrSigning: { signers, durationMs } };
  },
};
