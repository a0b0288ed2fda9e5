/** Baseline: containers may not bind host ports (hostPorts, v1.0). */
import { allowed, type Check, type CheckResult } from '../check.js';
import { containersPhrase, pluralize, sortedList, visitContainers } from '../helpers.js';
import type { PodMetadata, PodSpec } from '../../pod-types.js';

function hostPortsV1Dot0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  const ports = new Set<string>();
  visitContainers(spec, (c) => {
    let valid = true;
    for (const p of c.ports ?? []) {
      if (p.hostPort) {
        valid = false;
        ports.add(String(p.hostPort));
      }
    }
    if (!valid) bad.push(c.name ?? '');
  });
  if (bad.length === 0) return allowed;
  return {
    allowed: false,
    reason: 'hostPort',
    detail: `${containersPhrase(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', ports.size)} ${sortedList(ports).join(', ')}`,
  };
}

/** The hostPorts check. */
export const hostPorts: Check = { id: 'hostPorts', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: hostPortsV1Dot0 }] };
