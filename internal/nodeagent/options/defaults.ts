/**
 * KubeletConfiguration v1beta1's defaults (kubelet 1.33) in the node agent's resolved shape. With
 * --config, a file's missing fields take these; without one, kubelet's legacy flag defaults apply on
 * top (legacyFlagDefaults: read-only port 10255, anonymous auth on, webhook authn off, AlwaysAllow).
 */
import type { NodeAgentConfig } from '../interface.js';

/** v1beta1 defaults. */
export function defaultNodeAgentConfig(): NodeAgentConfig {
  return {
    address: '0.0.0.0',
    port: 10250,
    readOnlyPort: 0,
    healthzPort: 10248,
    healthzBindAddress: '127.0.0.1',
    tlsCipherSuites: [],
    rotateCertificates: false,
    serverTLSBootstrap: false,
    authentication: { x509: {}, webhook: { enabled: true, cacheTTLMs: 120_000 }, anonymous: { enabled: false } },
    authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTLMs: 300_000, cacheUnauthorizedTTLMs: 30_000 } },
    staticPodURLHeader: {},
    fileCheckFrequencyMs: 20_000,
    httpCheckFrequencyMs: 20_000,
    syncFrequencyMs: 60_000,
    maxPods: 110,
    podsPerCore: 0,
    containerRuntimeEndpoint: 'unix:///run/containerd/containerd.sock',
    runtimeRequestTimeoutMs: 120_000,
    containerLogMaxFiles: 5,
    containerLogMaxSize: 10 * 1024 * 1024,
    cgroupDriver: 'cgroupfs',
    cgroupRoot: '',
    serializeImagePulls: true,
    registryPullQPS: 5,
    registryBurst: 10,
    imageGCHighThresholdPercent: 85,
    imageGCLowThresholdPercent: 80,
    nodeStatusUpdateFrequencyMs: 10_000,
    nodeStatusReportFrequencyMs: 300_000,
    nodeLeaseDurationSeconds: 40,
    registerNode: true,
    registerWithTaints: [],
    evictionHard: [
      { signal: 'memory.available', quantity: 100 * 1024 * 1024 },
      { signal: 'nodefs.available', percentage: 0.1 },
      { signal: 'nodefs.inodesFree', percentage: 0.05 },
      { signal: 'imagefs.available', percentage: 0.15 },
      { signal: 'imagefs.inodesFree', percentage: 0.05 },
    ],
    evictionSoft: [],
    evictionPressureTransitionPeriodMs: 300_000,
    evictionMaxPodGracePeriod: 0,
    kubeAPIQPS: 50,
    kubeAPIBurst: 100,
    eventRecordQPS: 50,
    eventBurst: 100,
    clusterDNS: [],
    clusterDomain: '',
    resolvConf: '/etc/resolv.conf',
    certDir: '/var/lib/kubelet/pki',
    nodeIPs: [],
    nodeLabels: {},
    rootDir: '/var/lib/kubelet',
    runtime: 'remote',
    simulatedNodes: 1,
  };
}

/** kubelet's applyLegacyDefaults: what flags default to when no --config file is given. */
export function legacyFlagDefaults(config: NodeAgentConfig): NodeAgentConfig {
  return {
    ...config,
    readOnlyPort: 10255,
    authentication: { ...config.authentication, anonymous: { enabled: true }, webhook: { ...config.authentication.webhook, enabled: false } },
    authorization: { ...config.authorization, mode: 'AlwaysAllow' },
  };
}
