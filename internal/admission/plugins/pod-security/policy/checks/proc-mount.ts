/** Baseline: containers keep the default /proc masks (procMount, v1.0). */
import { allowed, type Check, type CheckResult } from '../check.js';
import { containersPhrase, joinQuote, sortedList, visitContainers } from '../helpers.js';
import type { PodMetadata, PodSpec } from '../../pod-types.js';

function procMountV1Dot0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  const types = new Set<string>();
  visitContainers(spec, (c) => {
    const pm = c.securityContext?.procMount;
    if (pm === undefined || pm === null || pm === 'Default') return;
    bad.push(c.name ?? '');
    types.add(pm);
  });
  if (bad.length === 0) return allowed;
  return { allowed: false, reason: 'procMount', detail: `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedList(types))}` };
}

/** The procMount check. */
export const procMount: Check = { id: 'procMount', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: procMountV1Dot0 }] };
