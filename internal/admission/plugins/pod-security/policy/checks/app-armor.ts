/**
 * Baseline: AppArmor may not be turned off (appArmorProfile, v1.0): the pod's and containers'
 * appArmorProfile.type must be RuntimeDefault or Localhost, and the deprecated beta annotations
 * must be empty, runtime/default or localhost/*.
 */
import { goQuote } from '../../../../../validation/field-error.js';
import { allowed, type Check, type CheckResult } from '../check.js';
import { compareStrings, containersPhrase, joinQuote, pluralize, sortedList, visitContainers } from '../helpers.js';
import type { PodMetadata, PodSpec } from '../../pod-types.js';

const annotationPrefix = 'container.apparmor.security.beta.kubernetes.io/';

const allowedType = (t: string | undefined): boolean => t === 'RuntimeDefault' || t === 'Localhost';
const allowedAnnotation = (v: string): boolean => v === '' || v === 'runtime/default' || v.startsWith('localhost/');

function appArmorProfileV1Dot0(meta: PodMetadata, spec: PodSpec): CheckResult {
  const setters: string[] = [];
  const badValues = new Set<string>();
  const podProfile = spec.securityContext?.appArmorProfile;
  if (podProfile && !allowedType(podProfile.type)) {
    setters.push('pod');
    badValues.add(podProfile.type ?? '');
  }
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    const p = c.securityContext?.appArmorProfile;
    if (p && !allowedType(p.type)) {
      bad.push(c.name ?? '');
      badValues.add(p.type ?? '');
    }
  });
  if (bad.length > 0) setters.push(containersPhrase(bad));
  const values = sortedList(badValues);
  const annotations: string[] = [];
  for (const [k, v] of Object.entries(meta.annotations ?? {})) {
    if (k.startsWith(annotationPrefix) && !allowedAnnotation(v)) annotations.push(`${k}=${goQuote(v)}`);
  }
  if (annotations.length > 0) {
    annotations.sort(compareStrings);
    values.push(...annotations);
    setters.push(pluralize('annotation', 'annotations', annotations.length));
  }
  if (setters.length === 0) return allowed;
  return {
    allowed: false,
    reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', values.length),
    detail: `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(values)}`,
  };
}

/** The appArmorProfile check. */
export const appArmorProfile: Check = { id: 'appArmorProfile', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: appArmorProfileV1Dot0 }] };
