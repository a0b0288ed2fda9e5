/** Baseline: sharing the host's network, PID or IPC namespace is forbidden (hostNamespaces, v1.0). */
import { allowed, type Check, type CheckResult } from '../check.js';
import type { PodMetadata, PodSpec } from '../../pod-types.js';

function hostNamespacesV1Dot0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const set: string[] = [];
  if (spec.hostNetwork) set.push('hostNetwork=true');
  if (spec.hostPID) set.push('hostPID=true');
  if (spec.hostIPC) set.push('hostIPC=true');
  if (set.length === 0) return allowed;
  return { allowed: false, reason: 'host namespaces', detail: set.join(', ') };
}

/** The hostNamespaces check. */
export const hostNamespaces: Check = { id: 'hostNamespaces', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: hostNamespacesV1Dot0 }] };
