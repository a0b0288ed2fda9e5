/**
 * The PodSandboxConfig kubelet's generatePodSandboxConfig makes: metadata (name, namespace, uid,
 * attempt), hostname (spec.hostname or the pod's name, at most 63 characters; none on the host
 * network), the log directory <podLogsDir>/<ns>_<name>_<uid>, DNS, port mappings of every
 * container port, labels and annotations, and the Linux part: the QoS cgroup parent when
 * --cgroup-root is set, namespaces (host network, PID, IPC), user and groups, seccomp, sysctls.
 */
import { join } from 'node:path';
import type { LinuxSandboxSecurityContext, PodSandboxConfig, PortMapping, SecurityProfile } from '../../../proto/cri/v1/types.js';
import type { NodeAgentConfig } from '../interface.js';
import { podDNSConfig, type HostDNS } from './dns.js';
import { sandboxLabels } from './labels.js';
import { podQOS } from './resources.js';
import type { Pod } from './types.js';

/** kubelet's default pod log root. */
export const defaultPodLogsDir = '/var/log/pods';

/** <podLogsDir>/<ns>_<name>_<uid>. */
export function podLogDirectory(config: Pick<NodeAgentConfig, 'podLogsDir'>, pod: Pod): string {
  return join(config.podLogsDir ?? defaultPodLogsDir, `${pod.metadata.namespace}_${pod.metadata.name}_${pod.metadata.uid}`);
}

/** The pod's hostname as kubelet's GeneratePodHostNameAndDomain truncates it. */
export function podHostname(pod: Pod): string {
  let h = pod.spec.hostname || pod.metadata.name || '';
  if (h.length > 63) h = h.slice(0, 63).replace(/[-.]+$/, '');
  return h;
}

/**
 * The cgroup parent of the pod: <root>/kubepods[/burstable|/besteffort]/pod<uid> with cgroupfs,
 * kubepods[-burstable|-besteffort]-pod<uid_>.slice with systemd, or '' (the runtime's default)
 * when --cgroup-root is not set.
 */
export function podCgroupParent(config: Pick<NodeAgentConfig, 'cgroupRoot' | 'cgroupDriver'>, pod: Pod): string {
  if (!config.cgroupRoot) return '';
  const qos = podQOS(pod);
  const uid = pod.metadata.uid ?? '';
  if (config.cgroupDriver === 'systemd') {
    const qosPart = qos === 'Guaranteed' ? '' : `-${qos.toLowerCase()}`;
    return `kubepods${qosPart}-pod${uid.replace(/-/g, '_')}.slice`;
  }
  const parts = [config.cgroupRoot.replace(/\/+$/, ''), 'kubepods'];
  if (qos !== 'Guaranteed') parts.push(qos.toLowerCase());
  parts.push(`pod${uid}`);
  return parts.join('/').replace(/^\/*/, '/');
}

/** A seccomp profile of the API as CRI's SecurityProfile (kubelet's default: Unconfined). */
export function seccompOf(profile: { type: string; localhostProfile?: string } | undefined): SecurityProfile {
  if (profile?.type === 'RuntimeDefault') return { profile_type: 'RuntimeDefault' };
  if (profile?.type === 'Localhost') return { profile_type: 'Localhost', localhost_ref: profile.localhostProfile ?? '' };
  return { profile_type: 'Unconfined' };
}

function portMappings(pod: Pod): PortMapping[] {
  const out: PortMapping[] = [];
  for (const c of pod.spec.containers) {
    for (const p of c.ports ?? []) {
      out.push({ protocol: p.protocol ?? 'TCP', container_port: p.containerPort, host_port: p.hostPort ?? 0, host_ip: p.hostIP ?? '' });
    }
  }
  return out;
}

/** The sandbox configuration of pod for attempt. */
export function sandboxConfig(config: NodeAgentConfig, pod: Pod, attempt: number, host: HostDNS): PodSandboxConfig {
  const sc = pod.spec.securityContext ?? {};
  const security: LinuxSandboxSecurityContext = {
    namespace_options: { network: pod.spec.hostNetwork ? 'NODE' : 'POD', pid: pod.spec.hostPID ? 'NODE' : 'CONTAINER', ipc: pod.spec.hostIPC ? 'NODE' : 'POD' },
    seccomp: seccompOf(sc.seccompProfile),
    supplemental_groups: [...(sc.supplementalGroups ?? []), ...(sc.fsGroup !== undefined ? [sc.fsGroup] : [])],
    ...(sc.runAsUser !== undefined ? { run_as_user: { value: sc.runAsUser } } : {}),
    ...(sc.runAsGroup !== undefined ? { run_as_group: { value: sc.runAsGroup } } : {}),
  };
  const sysctls: Record<string, string> = {};
  for (const s of sc.sysctls ?? []) sysctls[s.name] = s.value;
  return {
    metadata: { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? '', uid: pod.metadata.uid ?? '', attempt },
    hostname: pod.spec.hostNetwork ? '' : podHostname(pod),
    log_directory: podLogDirectory(config, pod),
    dns_config: podDNSConfig(pod, config.clusterDNS, config.clusterDomain, host),
    port_mappings: portMappings(pod),
    labels: sandboxLabels(pod),
    annotations: { ...pod.metadata.annotations },
    linux: { cgroup_parent: podCgroupParent(config, pod), security_context: security, sysctls },
  };
}
