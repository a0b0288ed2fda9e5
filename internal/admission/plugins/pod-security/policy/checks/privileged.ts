/** Baseline: privileged containers are forbidden (privileged, v1.0). */
import { allowed, type Check, type CheckResult } from '../check.js';
import { containersPhrase, visitContainers } from '../helpers.js';
import type { PodMetadata, PodSpec } from '../../pod-types.js';

function privilegedV1Dot0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.privileged === true) bad.push(c.name ?? '');
  });
  if (bad.length === 0) return allowed;
  return { allowed: false, reason: 'privileged', detail: `${containersPhrase(bad)} must not set securityContext.privileged=true` };
}

/** The privileged check. */
export const privileged: Check = { id: 'privileged', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: privilegedV1Dot0 }] };
