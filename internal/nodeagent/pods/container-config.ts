/**
 * The ContainerConfig kubelet's generateContainerConfig makes: metadata (name, attempt = restart
 * count), the pulled image, command and args with $(VAR) expanded, working dir, env, mounts (the
 * pod's volumes with subPath and read-only, /etc/hosts, the termination-message file), labels and
 * annotations, log path <name>/<restartCount>.log, stdin/tty, resources and the security context.
 */
import { mkdir, writeFile, chmod } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ContainerConfig, KeyValue, LinuxContainerSecurityContext, Mount, MountPropagation } from '../../../proto/cri/v1/types.js';
import { expand } from './expansion.js';
import { containerAnnotations, containerLabels } from './labels.js';
import { linuxResources } from './resources.js';
import { seccompOf } from './sandbox-config.js';
import type { Container, Pod } from './types.js';

/** kubelet's default masked and read-only /proc and /sys paths of unprivileged containers. */
const defaultMaskedPaths = ['/proc/asound', '/proc/acpi', '/proc/kcore', '/proc/keys', '/proc/latency_stats', '/proc/timer_list', '/proc/timer_stats', '/proc/sched_debug', '/proc/scsi', '/sys/firmware', '/sys/devices/virtual/powercap'];
const defaultReadonlyPaths = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];

/** What the container's config is made from besides the pod. */
export interface ContainerInputs {
  readonly imageRef: string;
  readonly restartCount: number;
  readonly env: KeyValue[];
  /** Volume name -> host path. */
  readonly volumes: ReadonlyMap<string, string>;
  /** <root-dir>/pods/<uid>. */
  readonly podDir: string;
  /** The managed /etc/hosts file, or undefined (host network). */
  readonly etcHosts?: string;
}

function propagation(p: string | undefined): MountPropagation {
  if (p === 'HostToContainer') return 'PROPAGATION_HOST_TO_CONTAINER';
  if (p === 'Bidirectional') return 'PROPAGATION_BIDIRECTIONAL';
  return 'PROPAGATION_PRIVATE';
}

async function mounts(pod: Pod, c: Container, inputs: ContainerInputs, lookup: (n: string) => string | undefined): Promise<{ mounts: Mount[]; terminationFile?: string }> {
  const out: Mount[] = [];
  let mountsEtcHosts = false;
  for (const vm of c.volumeMounts ?? []) {
    const base = inputs.volumes.get(vm.name);
    if (base === undefined) throw new Error(`cannot find volume "${vm.name}" to mount into container "${c.name}"`);
    const sub = vm.subPathExpr ? expand(vm.subPathExpr, lookup) : vm.subPath;
    let hostPath = base;
    if (sub) {
      if (sub.startsWith('/') || sub.split('/').includes('..')) throw new Error(`failed to prepare subPath for volumeMount "${vm.name}" of container "${c.name}"`);
      hostPath = join(base, sub);
      // kubelet creates a missing subPath as a directory.
      await mkdir(hostPath, { recursive: true }).catch(() => undefined);
    }
    if (vm.mountPath === '/etc/hosts') mountsEtcHosts = true;
    out.push({ container_path: vm.mountPath, host_path: hostPath, readonly: vm.readOnly ?? false, propagation: propagation(vm.mountPropagation) });
  }
  if (inputs.etcHosts && !mountsEtcHosts) out.push({ container_path: '/etc/hosts', host_path: inputs.etcHosts, readonly: false, propagation: 'PROPAGATION_PRIVATE' });
  const path = c.terminationMessagePath ?? '/dev/termination-log';
  let terminationFile: string | undefined;
  if (path && !out.some((m) => m.container_path === path)) {
    const dir = join(inputs.podDir, 'containers', c.name);
    await mkdir(dir, { recursive: true });
    terminationFile = join(dir, randomBytes(4).toString('hex'));
    await writeFile(terminationFile, '');
    await chmod(terminationFile, 0o666);
    out.push({ container_path: path, host_path: terminationFile, readonly: false, propagation: 'PROPAGATION_PRIVATE' });
  }
  return { mounts: out, ...(terminationFile ? { terminationFile } : {}) };
}

function securityContext(pod: Pod, c: Container): LinuxContainerSecurityContext {
  const psc = pod.spec.securityContext ?? {};
  const sc = c.securityContext ?? {};
  const privileged = sc.privileged ?? false;
  const runAsUser = sc.runAsUser ?? psc.runAsUser;
  const runAsGroup = sc.runAsGroup ?? psc.runAsGroup;
  const unmasked = privileged || sc.procMount === 'Unmasked';
  return {
    privileged,
    capabilities: { add_capabilities: sc.capabilities?.add ?? [], drop_capabilities: sc.capabilities?.drop ?? [] },
    namespace_options: { network: pod.spec.hostNetwork ? 'NODE' : 'POD', pid: pod.spec.hostPID ? 'NODE' : (pod.spec as { shareProcessNamespace?: boolean }).shareProcessNamespace ? 'POD' : 'CONTAINER', ipc: pod.spec.hostIPC ? 'NODE' : 'POD' },
    ...(runAsUser !== undefined ? { run_as_user: { value: runAsUser } } : {}),
    ...(runAsGroup !== undefined ? { run_as_group: { value: runAsGroup } } : {}),
    readonly_rootfs: sc.readOnlyRootFilesystem ?? false,
    supplemental_groups: [...(psc.supplementalGroups ?? []), ...(psc.fsGroup !== undefined ? [psc.fsGroup] : [])],
    no_new_privs: sc.allowPrivilegeEscalation === false,
    masked_paths: unmasked ? [] : defaultMaskedPaths,
    readonly_paths: unmasked ? [] : defaultReadonlyPaths,
    seccomp: seccompOf(sc.seccompProfile ?? psc.seccompProfile),
  };
}

/** The config of c and its termination-message file on the host. */
export async function containerConfig(pod: Pod, c: Container, inputs: ContainerInputs): Promise<{ config: ContainerConfig; terminationFile?: string }> {
  const vars = new Map(inputs.env.map((e) => [e.key ?? '', e.value ?? '']));
  const lookup = (n: string): string | undefined => vars.get(n);
  const m = await mounts(pod, c, inputs, lookup);
  const config: ContainerConfig = {
    metadata: { name: c.name, attempt: inputs.restartCount },
    image: { image: inputs.imageRef },
    command: (c.command ?? []).map((s) => expand(s, lookup)),
    args: (c.args ?? []).map((s) => expand(s, lookup)),
    working_dir: c.workingDir ?? '',
    envs: inputs.env,
    mounts: m.mounts,
    labels: containerLabels(pod, c),
    annotations: containerAnnotations(pod, c, inputs.restartCount),
    log_path: `${c.name}/${inputs.restartCount}.log`,
    stdin: c.stdin ?? false,
    stdin_once: c.stdinOnce ?? false,
    tty: c.tty ?? false,
    linux: { resources: linuxResources(pod, c), security_context: securityContext(pod, c) },
  };
  return { config, ...(m.terminationFile ? { terminationFile: m.terminationFile } : {}) };
}

/** The managed /etc/hosts of a pod (kubelet's etc-hosts file). */
export function etcHostsContent(pod: Pod, podIPs: readonly string[], clusterDomain: string, hostname: string): string {
  const lines = ['# Kubernetes-managed hosts file.', '127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback', 'fe00::0\tip6-localnet', 'fe00::0\tip6-mcastprefix', 'fe00::1\tip6-allnodes', 'fe00::2\tip6-allrouters'];
  const sub = pod.spec.subdomain;
  for (const ip of podIPs) {
    if (sub && clusterDomain) lines.push(`${ip}\t${hostname}.${sub}.${pod.metadata.namespace}.svc.${clusterDomain}\t${hostname}`);
    else lines.push(`${ip}\t${hostname}`);
  }
  let text = lines.join('\n') + '\n';
  if (pod.spec.hostAliases?.length) {
    text += '\n# Entries added by HostAliases.\n';
    for (const a of pod.spec.hostAliases) text += `${a.ip}\t${(a.hostnames ?? []).join('\t')}\n`;
  }
  return text;
}
