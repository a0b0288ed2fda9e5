/**
 * The group versions kube-apiserver 1.33's schemes know (legacyscheme, apiextensions-apiserver's
 * and kube-aggregator's), served or not: --runtime-config accepts a key for any of them (a known
 * version that nothing serves any more, such as batch/v1beta1, is accepted and changes nothing),
 * refuses a version its group does not have, and refuses a group none of them has.
 */
import type { GroupVersion } from './resource-config.js';

/** Each group's versions, in the scheme's priority order. */
const registeredVersions: Readonly<Record<string, readonly string[]>> = {
  '': ['v1'],
  'admission.k8s.io': ['v1', 'v1beta1'],
  'admissionregistration.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  'apiextensions.k8s.io': ['v1', 'v1beta1'],
  'apiregistration.k8s.io': ['v1', 'v1beta1'],
  apps: ['v1', 'v1beta2', 'v1beta1'],
  'authentication.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  'authorization.k8s.io': ['v1', 'v1beta1'],
  autoscaling: ['v2', 'v1', 'v2beta1', 'v2beta2'],
  batch: ['v1', 'v1beta1'],
  'certificates.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  'coordination.k8s.io': ['v1', 'v1beta1', 'v1alpha2'],
  'discovery.k8s.io': ['v1', 'v1beta1'],
  'events.k8s.io': ['v1', 'v1beta1'],
  extensions: ['v1beta1'],
  'flowcontrol.apiserver.k8s.io': ['v1', 'v1beta3', 'v1beta2', 'v1beta1'],
  'imagepolicy.k8s.io': ['v1alpha1'],
  'internal.apiserver.k8s.io': ['v1alpha1'],
  'networking.k8s.io': ['v1', 'v1beta1'],
  'node.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  policy: ['v1', 'v1beta1'],
  'rbac.authorization.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  'resource.k8s.io': ['v1beta2', 'v1beta1', 'v1alpha3'],
  'scheduling.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  'storage.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  'storagemigration.k8s.io': ['v1alpha1'],
};

/** Whether any of kube's schemes has the group. */
export function isGroupRegistered(group: string): boolean {
  return Object.hasOwn(registeredVersions, group);
}

/** Whether the group has the version. */
export function isVersionRegistered(gv: GroupVersion): boolean {
  return (registeredVersions[gv.group] ?? []).includes(gv.version);
}
