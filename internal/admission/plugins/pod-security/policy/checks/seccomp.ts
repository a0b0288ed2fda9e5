/**
 * Seccomp. Baseline (seccompProfile_baseline): a profile that is set must be RuntimeDefault or
 * Localhost (before v1.19, read from the alpha annotations). Restricted (seccompProfile_restricted,
 * v1.19; Windows pods exempt from v1.25): the profile must be set, on the pod or every container;
 * it replaces the baseline check.
 */
import { goQuote } from '../../../../../validation/field-error.js';
import { allowed, type Check, type CheckResult } from '../check.js';
import { containersPhrase, isWindowsPod, joinQuote, pluralize, sortedList, visitContainers } from '../helpers.js';
import type { PodMetadata, PodSpec } from '../../pod-types.js';

const podAnnotation = 'seccomp.security.alpha.kubernetes.io/pod';
const containerAnnotationPrefix = 'container.seccomp.security.alpha.kubernetes.io/';

const validType = (t: string | undefined): boolean => t === 'Localhost' || t === 'RuntimeDefault';
const validAnnotation = (v: string): boolean => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');

function seccompBaselineV1Dot0(meta: PodMetadata, spec: PodSpec): CheckResult {
  const forbidden = new Set<string>();
  const annotations = meta.annotations ?? {};
  const pod = annotations[podAnnotation];
  if (pod !== undefined && !validAnnotation(pod)) forbidden.add(`${podAnnotation}=${goQuote(pod)}`);
  visitContainers(spec, (c) => {
    const key = containerAnnotationPrefix + (c.name ?? '');
    const v = annotations[key];
    if (v !== undefined && !validAnnotation(v)) forbidden.add(`${key}=${goQuote(v)}`);
  });
  if (forbidden.size === 0) return allowed;
  return {
    allowed: false,
    reason: 'seccompProfile',
    detail: `forbidden ${pluralize('annotation', 'annotations', forbidden.size)} ${sortedList(forbidden).join(', ')}`,
  };
}

/** The pod and containers that set a bad profile type, and the types; podValid when the pod set a good one. */
function badSetters(spec: PodSpec): { setters: string[]; values: Set<string>; podValid: boolean; unset: string[] } {
  const setters: string[] = [];
  const values = new Set<string>();
  let podValid = false;
  const podProfile = spec.securityContext?.seccompProfile;
  if (podProfile) {
    if (!validType(podProfile.type)) {
      setters.push('pod');
      values.add(podProfile.type ?? '');
    } else {
      podValid = true;
    }
  }
  const bad: string[] = [];
  const unset: string[] = [];
  visitContainers(spec, (c) => {
    const p = c.securityContext?.seccompProfile;
    if (p) {
      if (!validType(p.type)) {
        bad.push(c.name ?? '');
        values.add(p.type ?? '');
      }
    } else {
      unset.push(c.name ?? '');
    }
  });
  if (bad.length > 0) setters.push(containersPhrase(bad));
  return { setters, values, podValid, unset };
}

function badSettersResult(setters: string[], values: Set<string>): CheckResult {
  return {
    allowed: false,
    reason: 'seccompProfile',
    detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedList(values))}`,
  };
}

function seccompBaselineV1Dot19(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const { setters, values } = badSetters(spec);
  return setters.length === 0 ? allowed : badSettersResult(setters, values);
}

function seccompRestrictedV1Dot19(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const { setters, values, podValid, unset } = badSetters(spec);
  if (setters.length > 0) return badSettersResult(setters, values);
  if (!podValid && unset.length > 0) {
    return {
      allowed: false,
      reason: 'seccompProfile',
      detail: `pod or ${containersPhrase(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
    };
  }
  return allowed;
}

// Windows pods cannot set seccomp profiles (validation refuses them).
function seccompRestrictedV1Dot25(meta: PodMetadata, spec: PodSpec): CheckResult {
  return isWindowsPod(spec) ? allowed : seccompRestrictedV1Dot19(meta, spec);
}

/** The seccompProfile_baseline check. */
export const seccompProfileBaseline: Check = {
  id: 'seccompProfile_baseline',
  level: 'baseline',
  versions: [
    { minimumMinor: 0, checkPod: seccompBaselineV1Dot0 },
    { minimumMinor: 19, checkPod: seccompBaselineV1Dot19 },
  ],
};

/** The seccompProfile_restricted check. */
export const seccompProfileRestricted: Check = {
  id: 'seccompProfile_restricted',
  level: 'restricted',
  versions: [
    { minimumMinor: 19, checkPod: seccompRestrictedV1Dot19, overrides: ['seccompProfile_baseline'] },
    { minimumMinor: 25, checkPod: seccompRestrictedV1Dot25, overrides: ['seccompProfile_baseline'] },
  ],
};
