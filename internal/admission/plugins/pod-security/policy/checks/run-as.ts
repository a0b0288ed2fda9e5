/**
 * Restricted user checks: runAsNonRoot (v1.0) requires runAsNonRoot=true on the pod or every
 * container; runAsUser (v1.23) forbids runAsUser=0 anywhere.
 */
import { allowed, type Check, type CheckResult } from '../check.js';
import { containersPhrase, visitContainers } from '../helpers.js';
import type { PodMetadata, PodSpec } from '../../pod-types.js';

function runAsNonRootV1Dot0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const setters: string[] = [];
  const pod = spec.securityContext?.runAsNonRoot;
  if (pod === false) setters.push('pod');
  const podRunAsNonRoot = pod === true;
  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  visitContainers(spec, (c) => {
    const v = c.securityContext?.runAsNonRoot;
    if (v !== undefined && v !== null) {
      if (!v) explicitlyBad.push(c.name ?? '');
    } else if (!podRunAsNonRoot) {
      implicitlyBad.push(c.name ?? '');
    }
  });
  if (explicitlyBad.length > 0) setters.push(containersPhrase(explicitlyBad));
  if (setters.length > 0) {
    return { allowed: false, reason: 'runAsNonRoot != true', detail: `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
  }
  if (implicitlyBad.length > 0) {
    return { allowed: false, reason: 'runAsNonRoot != true', detail: `pod or ${containersPhrase(implicitlyBad)} must set securityContext.runAsNonRoot=true` };
  }
  return allowed;
}

function runAsUserV1Dot23(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const setters: string[] = [];
  if (spec.securityContext?.runAsUser === 0) setters.push('pod');
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.runAsUser === 0) bad.push(c.name ?? '');
  });
  if (bad.length > 0) setters.push(containersPhrase(bad));
  if (setters.length === 0) return allowed;
  return { allowed: false, reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` };
}

/** The runAsNonRoot check. */
export const runAsNonRoot: Check = { id: 'runAsNonRoot', level: 'restricted', versions: [{ minimumMinor: 0, checkPod: runAsNonRootV1Dot0 }] };

/** The runAsUser check. */
export const runAsUser: Check = { id: 'runAsUser', level: 'restricted', versions: [{ minimumMinor: 23, checkPod: runAsUserV1Dot23 }] };
