/**
 * Capabilities. Baseline (capabilities_baseline, v1.0): only the container runtime's default set
 * may be added. Restricted (capabilities_restricted, v1.22; Windows pods exempt from v1.25): ALL
 * must be dropped and only NET_BIND_SERVICE added; it replaces the baseline check.
 */
import { allowed, type Check, type CheckResult } from '../check.js';
import { containersPhrase, isWindowsPod, joinQuote, sortedList, visitContainers } from '../helpers.js';
import type { PodMetadata, PodSpec } from '../../pod-types.js';

const defaultCapabilities = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

function capabilitiesBaselineV1Dot0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  const nonDefault = new Set<string>();
  visitContainers(spec, (c) => {
    const caps = c.securityContext?.capabilities;
    if (!caps) return;
    let valid = true;
    for (const cap of caps.add ?? []) {
      if (!defaultCapabilities.has(cap)) {
        valid = false;
        nonDefault.add(cap);
      }
    }
    if (!valid) bad.push(c.name ?? '');
  });
  if (bad.length === 0) return allowed;
  return {
    allowed: false,
    reason: 'non-default capabilities',
    detail: `${containersPhrase(bad)} must not include ${joinQuote(sortedList(nonDefault))} in securityContext.capabilities.add`,
  };
}

function capabilitiesRestrictedV1Dot22(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbiddenCaps = new Set<string>();
  visitContainers(spec, (c) => {
    const caps = c.securityContext?.capabilities;
    if (!caps) {
      missingDropAll.push(c.name ?? '');
      return;
    }
    if (!(caps.drop ?? []).includes('ALL')) missingDropAll.push(c.name ?? '');
    let addedForbidden = false;
    for (const cap of caps.add ?? []) {
      if (cap !== 'NET_BIND_SERVICE') {
        addedForbidden = true;
        forbiddenCaps.add(cap);
      }
    }
    if (addedForbidden) addingForbidden.push(c.name ?? '');
  });
  const details: string[] = [];
  if (missingDropAll.length > 0) details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length > 0) {
    details.push(`${containersPhrase(addingForbidden)} must not include ${joinQuote(sortedList(forbiddenCaps))} in securityContext.capabilities.add`);
  }
  if (details.length === 0) return allowed;
  return { allowed: false, reason: 'unrestricted capabilities', detail: details.join('; ') };
}

// Windows pods cannot set capabilities (validation refuses them), so they cannot drop ALL.
function capabilitiesRestrictedV1Dot25(meta: PodMetadata, spec: PodSpec): CheckResult {
  return isWindowsPod(spec) ? allowed : capabilitiesRestrictedV1Dot22(meta, spec);
}

/** The capabilities_baseline check. */
export const capabilitiesBaseline: Check = {
  id: 'capabilities_baseline',
  level: 'baseline',
  versions: [{ minimumMinor: 0, checkPod: capabilitiesBaselineV1Dot0 }],
};

/** The capabilities_restricted check. */
export const capabilitiesRestricted: Check = {
  id: 'capabilities_restricted',
  level: 'restricted',
  versions: [
    { minimumMinor: 22, checkPod: capabilitiesRestrictedV1Dot22, overrides: ['capabilities_baseline'] },
    { minimumMinor: 25, checkPod: capabilitiesRestrictedV1Dot25, overrides: ['capabilities_baseline'] },
  ],
};
