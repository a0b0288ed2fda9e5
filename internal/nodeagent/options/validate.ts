/**
 * kubelet's validation of the merged configuration (ValidateKubeletConfiguration and the flag
 * checks of its server), every failure collected, with kubelet's messages.
 */
import { isIP } from 'node:net';
import type { NodeAgentConfig } from '../interface.js';

const tlsVersions = ['VersionTLS10', 'VersionTLS11', 'VersionTLS12', 'VersionTLS13'];

/** Every problem of config, in kubelet's words (empty when valid). */
export function validateNodeAgentConfig(k: NodeAgentConfig): string[] {
  const errs: string[] = [];
  const bad = (msg: string): void => void errs.push(`invalid configuration: ${msg}`);
  const nonNegative = (v: number, field: string, flag: string): void => {
    if (v < 0) bad(`${field} (--${flag}) ${v} must not be a negative number`);
  };
  if (k.port < 1 || k.port > 65535) bad(`port (--port) ${k.port} must be between 1 and 65535, inclusive`);
  if (k.readOnlyPort < 0 || k.readOnlyPort > 65535) bad(`readOnlyPort (--read-only-port) ${k.readOnlyPort} must be between 0 and 65535, inclusive`);
  if (k.healthzPort < 0 || k.healthzPort > 65535) bad(`healthzPort (--healthz-port) ${k.healthzPort} must be between 1 and 65535, inclusive`);
  if (isIP(k.address) === 0) bad(`address (--address) ${JSON.stringify(k.address)} is not a valid IP address`);
  if (k.healthzPort !== 0 && isIP(k.healthzBindAddress) === 0) bad(`healthzBindAddress (--healthz-bind-address) ${JSON.stringify(k.healthzBindAddress)} is not a valid IP address`);
  nonNegative(k.maxPods, 'maxPods', 'max-pods');
  nonNegative(k.podsPerCore, 'podsPerCore', 'pods-per-core');
  nonNegative(k.registryPullQPS, 'registryPullQPS', 'registry-qps');
  nonNegative(k.registryBurst, 'registryBurst', 'registry-burst');
  nonNegative(k.eventRecordQPS, 'eventRecordQPS', 'event-qps');
  nonNegative(k.eventBurst, 'eventBurst', 'event-burst');
  nonNegative(k.kubeAPIQPS, 'kubeAPIQPS', 'kube-api-qps');
  nonNegative(k.kubeAPIBurst, 'kubeAPIBurst', 'kube-api-burst');
  if (k.imageGCHighThresholdPercent < 0 || k.imageGCHighThresholdPercent > 100) bad(`imageGCHighThresholdPercent (--image-gc-high-threshold) ${k.imageGCHighThresholdPercent} must be between 0 and 100, inclusive`);
  if (k.imageGCLowThresholdPercent < 0 || k.imageGCLowThresholdPercent > 100) bad(`imageGCLowThresholdPercent (--image-gc-low-threshold) ${k.imageGCLowThresholdPercent} must be between 0 and 100, inclusive`);
  if (k.imageGCLowThresholdPercent >= k.imageGCHighThresholdPercent) bad(`imageGCLowThresholdPercent (--image-gc-low-threshold) ${k.imageGCLowThresholdPercent} must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) ${k.imageGCHighThresholdPercent}`);
  if (k.nodeLeaseDurationSeconds <= 0) bad('nodeLeaseDurationSeconds must be greater than 0');
  if (k.nodeStatusUpdateFrequencyMs <= 0) bad(`nodeStatusUpdateFrequency (--node-status-update-frequency) ${k.nodeStatusUpdateFrequencyMs / 1000}s must be > 0`);
  if (k.nodeStatusReportFrequencyMs <= 0) bad('nodeStatusReportFrequency must be > 0');
  if (k.syncFrequencyMs <= 0) bad('syncFrequency (--sync-frequency) must be > 0');
  if (k.fileCheckFrequencyMs <= 0) bad('fileCheckFrequency (--file-check-frequency) must be > 0');
  if (k.httpCheckFrequencyMs <= 0) bad('httpCheckFrequency (--http-check-frequency) must be > 0');
  if (k.runtimeRequestTimeoutMs <= 0) bad('runtimeRequestTimeout (--runtime-request-timeout) must be > 0');
  if (k.containerLogMaxFiles < 2) bad(`containerLogMaxFiles must be greater than or equal to 2`);
  if (k.containerLogMaxSize < 0) bad(`containerLogMaxSize must not be a negative number`);
  if (k.evictionPressureTransitionPeriodMs < 0) bad('evictionPressureTransitionPeriod (--eviction-pressure-transition-period) must not be negative');
  if (k.cgroupDriver !== 'cgroupfs' && k.cgroupDriver !== 'systemd') bad(`cgroupDriver (--cgroup-driver) ${JSON.stringify(k.cgroupDriver)} must be one of cgroupfs or systemd`);
  if (k.tlsMinVersion && !tlsVersions.includes(k.tlsMinVersion)) bad(`tlsMinVersion (--tls-min-version) ${JSON.stringify(k.tlsMinVersion)} is not one of ${tlsVersions.join(', ')}`);
  if (Boolean(k.tlsCertFile) !== Boolean(k.tlsPrivateKeyFile)) bad('tlsCertFile (--tls-cert-file) and tlsPrivateKeyFile (--tls-private-key-file) must be given together');
  for (const ip of k.clusterDNS) if (isIP(ip) === 0) bad(`option "clusterDNS" value ${JSON.stringify(ip)} must be a valid IP address`);
  if (k.runtime === 'remote') {
    if (!k.containerRuntimeEndpoint) bad('the container runtime endpoint address was not specified or empty, use --container-runtime-endpoint to set');
    else if (!k.containerRuntimeEndpoint.startsWith('unix://') && !k.containerRuntimeEndpoint.startsWith('/')) bad(`containerRuntimeEndpoint (--container-runtime-endpoint) ${JSON.stringify(k.containerRuntimeEndpoint)}: only unix:// endpoints are supported on Linux`);
  }
  if (!k.kubeconfig) errs.push('--kubeconfig is required: standalone mode (no API server) is not supported by the node agent');
  if (k.simulatedNodes < 1) errs.push(`--nodes ${k.simulatedNodes} must be at least 1`);
  if (k.simulatedNodes > 1 && k.runtime !== 'simulated') errs.push('--nodes greater than 1 requires --runtime=simulated');
  if (k.simulatedNodes > 1 && k.hostnameOverride) errs.push('--hostname-override names one node: it cannot be combined with --nodes greater than 1');
  return errs;
}
