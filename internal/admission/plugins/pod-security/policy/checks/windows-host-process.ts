/** Baseline: no Windows HostProcess pods or containers (windowsHostProcess, v1.0). */
import { allowed, type Check, type CheckResult } from '../check.js';
import { containersPhrase, visitContainers } from '../helpers.js';
import type { PodMetadata, PodSpec } from '../../pod-types.js';

function windowsHostProcessV1Dot0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.windowsOptions?.hostProcess === true) bad.push(c.name ?? '');
  });
  const setters: string[] = [];
  if (spec.securityContext?.windowsOptions?.hostProcess === true) setters.push('pod');
  if (bad.length > 0) setters.push(containersPhrase(bad));
  if (setters.length === 0) return allowed;
  return { allowed: false, reason: 'hostProcess', detail: `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` };
}

/** The windowsHostProcess check. */
export const windowsHostProcess: Check = {
  id: 'windowsHostProcess',
  level: 'baseline',
  versions: [{ minimumMinor: 0, checkPod: windowsHostProcessV1Dot0 }],
};
