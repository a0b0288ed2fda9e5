/**
 * The node agent's API client as kubelet builds it: from --kubeconfig, or, when that file is missing
 * or its client certificate expired and --bootstrap-kubeconfig is given, from a client certificate
 * obtained with the bootstrap credentials (a kubernetes.io/kube-apiserver-client-kubelet CSR for
 * system:node:<name> in system:nodes), stored in --cert-dir and written into --kubeconfig. With
 * rotateCertificates the certificate is renewed at 70-90% of its lifetime (rotation.ts).
 */
import type { Logger } from '../../observability/logging.js';
import { buildVersionInfo } from '../../version/info.js';
import { ApiClient, type ApiClientConfig } from '../client/api-client.js';
import type { NodeAgentConfig, Stoppable } from '../interface.js';
import { generateKeyPem, kubeletClientSigner, kubeletClientUsages, requestCertificate } from './csr.js';
import { kubeconfigStillValid, loadNodeKubeconfig, writeBootstrappedKubeconfig, type KubeconfigTarget } from './kubeconfig.js';
import { startClientRotation } from './rotation.js';
import { CertificateStore, validityOf, type StoredPair } from './store.js';

/** The client and what keeps its credentials fresh. */
export interface NodeClient extends Stoppable {
  readonly client: ApiClient;
}

/** kubelet's user agent: kubelet/<version> (<os>/<arch>) kubernetes/<commit>. */
export function kubeletUserAgent(): string {
  const info = buildVersionInfo();
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  return `kubelet/${info.gitVersion} (${process.platform}/${arch}) kubernetes/${info.gitCommit.slice(0, 7) || 'unknown'}`;
}

function clientConfigOf(target: KubeconfigTarget, config: NodeAgentConfig, pair?: StoredPair): ApiClientConfig {
  return {
    server: target.server,
    ...(target.ca ? { ca: target.ca } : {}),
    insecureSkipTLSVerify: target.insecureSkipTLSVerify,
    ...(target.tlsServerName ? { tlsServerName: target.tlsServerName } : {}),
    ...(pair ? { clientCert: Buffer.from(pair.certPem), clientKey: Buffer.from(pair.keyPem) } : target.clientCert && target.clientKey ? { clientCert: target.clientCert, clientKey: target.clientKey } : {}),
    ...(target.token && !pair ? { token: target.token } : {}),
    qps: config.kubeAPIQPS,
    burst: config.kubeAPIBurst,
    userAgent: kubeletUserAgent(),
  };
}

/**
 * Obtains a client certificate with the bootstrap kubeconfig (kubelet's LoadClientCert) unless the
 * kubeconfig is still valid; writes the kubeconfig. Waits for approval as long as it takes (until
 * signal aborts), as kubelet does.
 */
export async function bootstrapClientCertificate(config: NodeAgentConfig, nodeName: string, log: Logger, signal?: AbortSignal): Promise<void> {
  const kubeconfig = config.kubeconfig as string;
  const bootstrap = config.bootstrapKubeconfig as string;
  const valid = await kubeconfigStillValid(kubeconfig);
  if (valid.ok) {
    log.info('Kubeconfig exists and is valid, skipping bootstrap', { path: kubeconfig });
    return;
  }
  log.info(valid.reason);
  log.info('Using bootstrap kubeconfig to generate TLS client cert, key and kubeconfig file');
  const bootstrapTarget = await loadNodeKubeconfig(bootstrap);
  const store = new CertificateStore(config.certDir, 'kubelet-client');
  const current = await store.current();
  if (current && current.notAfter > new Date()) {
    await writeBootstrappedKubeconfig(kubeconfig, bootstrapTarget, current.path);
    log.info('Using the existing client certificate in the certificate directory', { path: current.path });
    return;
  }
  const keyPem = await store.pendingKey(generateKeyPem);
  const bootstrapClient = new ApiClient(clientConfigOf(bootstrapTarget, config));
  try {
    const certPem = await requestCertificate(
      bootstrapClient,
      keyPem,
      { commonName: `system:node:${nodeName}`, organizations: ['system:nodes'] },
      { signerName: kubeletClientSigner, usages: kubeletClientUsages, ...(signal ? { signal } : {}) },
    );
    const pair = await store.update(certPem, keyPem);
    await store.clearPendingKey();
    await writeBootstrappedKubeconfig(kubeconfig, bootstrapTarget, pair.path);
    log.info('Bootstrap: obtained a client certificate', { notAfter: pair.notAfter.toISOString(), path: pair.path });
  } finally {
    bootstrapClient.close();
  }
}

/** Hooks for tests of rotation: the jitter source and a call after each swap. */
export interface RotationHooks {
  readonly random?: () => number;
  readonly onRotated?: (pair: StoredPair) => void;
}

/** Builds the node's client (bootstrapping first when configured) and starts certificate rotation if on. */
export async function buildNodeClient(config: NodeAgentConfig, nodeName: string, log: Logger, signal?: AbortSignal, hooks: RotationHooks = {}): Promise<NodeClient> {
  if (!config.kubeconfig) throw new Error('--kubeconfig is required');
  if (config.bootstrapKubeconfig) await bootstrapClientCertificate(config, nodeName, log, signal);
  const target = await loadNodeKubeconfig(config.kubeconfig);
  const store = new CertificateStore(config.certDir, 'kubelet-client');
  let pair: StoredPair | undefined;
  if (config.rotateCertificates) {
    // The store's newest pair wins over the kubeconfig's files, as kubelet's certificate manager
    // starts from its store: a rotated certificate survives a restart.
    const stored = await store.current();
    if (stored && stored.notAfter > new Date()) pair = stored;
    else if (target.clientCert && target.clientKey) pair = { certPem: target.clientCert.toString('utf8'), keyPem: target.clientKey.toString('utf8'), path: '', ...validityOf(target.clientCert.toString('utf8')) };
  }
  const client = new ApiClient(clientConfigOf(target, config, pair));
  // Without a client certificate (token credentials), rotation requests one at once, as kubelet's
  // certificate manager does when its store is empty.
  const rotation = config.rotateCertificates ? startClientRotation({ client, store, ...(pair ? { pair } : {}), nodeName, log, ...hooks }) : undefined;
  return {
    client,
    async stop() {
      rotation?.stop();
      client.close();
    },
  };
}
