/**
 * Volumes. Baseline (hostPathVolumes, v1.0): no hostPath volumes. Restricted (restrictedVolumes,
 * v1.0): only configMap, csi, downwardAPI, emptyDir, ephemeral, image, persistentVolumeClaim,
 * projected and secret volumes; it replaces the baseline check.
 */
import { allowed, type Check, type CheckResult } from '../check.js';
import { joinQuote, pluralize, sortedList } from '../helpers.js';
import type { PodMetadata, PodSpec, Volume } from '../../pod-types.js';

const set = (v: Volume, field: string): boolean => v[field] !== undefined && v[field] !== null;

function hostPathVolumesV1Dot0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const names: string[] = [];
  for (const v of spec.volumes ?? []) if (set(v, 'hostPath')) names.push(v.name ?? '');
  if (names.length === 0) return allowed;
  return { allowed: false, reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}` };
}

const allowedSources = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'];

// The sources kube names, in the order it looks for them; anything else is "unknown".
const restrictedSources = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

function restrictedVolumesV1Dot0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const names: string[] = [];
  const types = new Set<string>();
  for (const v of spec.volumes ?? []) {
    if (allowedSources.some((f) => set(v, f))) continue;
    names.push(v.name ?? '');
    types.add(restrictedSources.find((f) => set(v, f)) ?? 'unknown');
  }
  if (names.length === 0) return allowed;
  return {
    allowed: false,
    reason: 'restricted volume types',
    detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)} ${pluralize('uses', 'use', names.length)} ${pluralize(
      'restricted volume type',
      'restricted volume types',
      types.size,
    )} ${joinQuote(sortedList(types))}`,
  };
}

/** The hostPathVolumes check. */
export const hostPathVolumes: Check = { id: 'hostPathVolumes', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: hostPathVolumesV1Dot0 }] };

/** The restrictedVolumes check. */
export const restrictedVolumes: Check = {
  id: 'restrictedVolumes',
  level: 'restricted',
  versions: [{ minimumMinor: 0, checkPod: restrictedVolumesV1Dot0, overrides: ['hostPathVolumes'] }],
};
