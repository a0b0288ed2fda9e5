/** Baseline: only namespaced, isolated ("safe") sysctls (sysctls; the safe set grew in v1.27, v1.29, v1.32). */
import { allowed, type Check, type CheckPodFn } from '../check.js';

function sysctlsCheck(safe: ReadonlySet<string>): CheckPodFn {
  return (_meta, spec) => {
    const forbidden: string[] = [];
    for (const s of spec.securityContext?.sysctls ?? []) if (!safe.has(s.name ?? '')) forbidden.push(s.name ?? '');
    if (forbidden.length === 0) return allowed;
    return { allowed: false, reason: 'forbidden sysctls', detail: forbidden.join(', ') };
  };
}

const safeV1Dot0 = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
]);
const safeV1Dot27 = new Set([...safeV1Dot0, 'net.ipv4.ip_local_reserved_ports']);
const safeV1Dot29 = new Set([
  ...safeV1Dot27,
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
]);
const safeV1Dot32 = new Set([...safeV1Dot29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem']);

/** The sysctls check. */
export const sysctls: Check = {
  id: 'sysctls',
  level: 'baseline',
  versions: [
    { minimumMinor: 0, checkPod: sysctlsCheck(safeV1Dot0) },
    { minimumMinor: 27, checkPod: sysctlsCheck(safeV1Dot27) },
    { minimumMinor: 29, checkPod: sysctlsCheck(safeV1Dot29) },
    { minimumMinor: 32, checkPod: sysctlsCheck(safeV1Dot32) },
  ],
};
