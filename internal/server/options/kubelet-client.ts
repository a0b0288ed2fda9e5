/**
 * How the API server reaches kubelets (kube-apiserver's KubeletConfig flags): --kubelet-client-
 * certificate/--kubelet-client-key (the identity it presents), --kubelet-certificate-authority
 * (what the kubelet's serving certificate must chain to; without it the certificate is not
 * verified, as kube does), --kubelet-timeout, --kubelet-preferred-address-types, and the deprecated
 * --kubelet-port (used when a Node reports no kubelet endpoint port) and --kubelet-read-only-port
 * (kept for compatibility; kube no longer uses it either).
 */
import { durationFlag, FlagError, intFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** The NodeAddressTypes a kubelet may be reached by. */
export const nodeAddressTypes = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'] as const;

/** Validated kubelet client options. */
export interface KubeletClientOptions {
  readonly clientCertificate?: string;
  readonly clientKey?: string;
  readonly certificateAuthority?: string;
  readonly timeoutMs: number;
  readonly preferredAddressTypes: readonly string[];
  readonly port: number;
  readonly readOnlyPort: number;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly kubeletClient?: KubeletClientOptions;
  }
}

/** kube's defaults. */
export const defaultKubeletClientOptions: KubeletClientOptions = { timeoutMs: 5000, preferredAddressTypes: [...nodeAddressTypes], port: 10250, readOnlyPort: 10255 };

function port(name: string, value: unknown): number {
  const n = intFlag(name, value);
  if (n < 0 || n > 65535) throw new FlagError(`--${name} ${n} must be between 0 and 65535, inclusive`);
  return n;
}

/** The kubelet client flag group. */
export const kubeletClientFlags: FlagGroup<'kubeletClient'> = {
  register(y) {
    y.option('kubelet-client-certificate', { type: 'string', describe: 'Path to a client cert file for TLS.' });
    y.option('kubelet-client-key', { type: 'string', describe: 'Path to a client key file for TLS.' });
    y.option('kubelet-certificate-authority', { type: 'string', describe: 'Path to a cert file for the certificate authority.' });
    y.option('kubelet-timeout', { type: 'string', default: '5s', describe: 'Timeout for kubelet operations.' });
    y.option('kubelet-preferred-address-types', { type: 'string', default: nodeAddressTypes.join(','), describe: 'List of the preferred NodeAddressTypes to use for kubelet connections.' });
    y.option('kubelet-port', { type: 'string', default: '10250', describe: 'DEPRECATED: kubelet port.' });
    y.option('kubelet-read-only-port', { type: 'string', default: '10255', describe: 'DEPRECATED: kubelet read only port.' });
  },
  validate(p) {
    const clientCertificate = (p['kubelet-client-certificate'] as string | undefined) || undefined;
    const clientKey = (p['kubelet-client-key'] as string | undefined) || undefined;
    if (Boolean(clientCertificate) !== Boolean(clientKey)) throw new FlagError('--kubelet-client-certificate and --kubelet-client-key must be given together');
    const certificateAuthority = (p['kubelet-certificate-authority'] as string | undefined) || undefined;
    const timeoutMs = durationFlag('kubelet-timeout', p['kubelet-timeout'] ?? '5s');
    if (timeoutMs < 0) throw new FlagError('--kubelet-timeout must not be negative');
    const types = String(p['kubelet-preferred-address-types'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const t of types) {
      if (!(nodeAddressTypes as readonly string[]).includes(t)) throw new FlagError(`--kubelet-preferred-address-types: unknown address type ${JSON.stringify(t)}, must be one of ${nodeAddressTypes.join(', ')}`);
    }
    return {
      kubeletClient: {
        ...(clientCertificate ? { clientCertificate } : {}),
        ...(clientKey ? { clientKey } : {}),
        ...(certificateAuthority ? { certificateAuthority } : {}),
        timeoutMs,
        preferredAddressTypes: types,
        port: port('kubelet-port', p['kubelet-port'] ?? '10250'),
        readOnlyPort: port('kubelet-read-only-port', p['kubelet-read-only-port'] ?? '10255'),
      },
    };
  },
};
