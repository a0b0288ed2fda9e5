/** Restricted: every container sets allowPrivilegeEscalation=false (v1.8; Windows pods exempt from v1.25). */
import { allowed, type Check, type CheckResult } from '../check.js';
import { containersPhrase, isWindowsPod, visitContainers } from '../helpers.js';
import type { PodMetadata, PodSpec } from '../../pod-types.js';

function allowPrivilegeEscalationV1Dot8(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.allowPrivilegeEscalation !== false) bad.push(c.name ?? '');
  });
  if (bad.length === 0) return allowed;
  return { allowed: false, reason: 'allowPrivilegeEscalation != false', detail: `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false` };
}

// Windows has no privilege escalation to turn off, and validation refuses the field there.
function allowPrivilegeEscalationV1Dot25(meta: PodMetadata, spec: PodSpec): CheckResult {
  return isWindowsPod(spec) ? allowed : allowPrivilegeEscalationV1Dot8(meta, spec);
}

/** The allowPrivilegeEscalation check. */
export const allowPrivilegeEscalation: Check = {
  id: 'allowPrivilegeEscalation',
  level: 'restricted',
  versions: [
    { minimumMinor: 8, checkPod: allowPrivilegeEscalationV1Dot8 },
    { minimumMinor: 25, checkPod: allowPrivilegeEscalationV1Dot25 },
  ],
};
