/**
 * NodeRestriction's rules for what a node writes besides pods: its own Node object (no
 * configSource, no taint changes, only kubelet labels), PersistentVolumeClaim status, service
 * account tokens bound to its pods, its Lease in kube-node-lease, its CSINode and its
 * ResourceSlices. Each throws kube's refusal.
 */
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../../../../api/meta/types.js';
import { newNotFound } from '../../../apierrors/factories.js';
import type { AdmissionAttributes } from '../../interface.js';
import { admissionForbidden } from '../pod-shared/forbidden.js';
import { forbiddenLabels, modifiedLabels } from './labels.js';
import { checkTokenAudience } from './audience.js';
import type { NodeRestrictionLookups } from './pods.js';

interface NodeSpec {
  configSource?: unknown;
  taints?: unknown[];
}

const nodeSpec = (o: KubeObject | undefined): NodeSpec => ((o as { spec?: NodeSpec } | undefined)?.spec ?? {});

/** nodes (and their subresources): only the node's own, within kube's limits. */
export function admitNode(node: string, attrs: AdmissionAttributes): void {
  const requested = attrs.name || (attrs.operation === 'CREATE' ? (attrs.object?.metadata.name ?? '') : '');
  if (requested !== node) throw admissionForbidden(attrs, `node "${node}" is not allowed to modify node "${requested}"`);
  if (attrs.operation === 'CREATE' && attrs.object) {
    if (nodeSpec(attrs.object).configSource) throw admissionForbidden(attrs, `node "${node}" is not allowed to create pods with a non-nil configSource`);
    const bad = forbiddenLabels(modifiedLabels(attrs.object.metadata.labels, undefined));
    if (bad.length > 0) throw admissionForbidden(attrs, `node "${node}" is not allowed to set the following labels: ${bad.join(', ')}`);
  }
  if (attrs.operation === 'UPDATE' && attrs.object && attrs.oldObject) {
    const cur = nodeSpec(attrs.object);
    const old = nodeSpec(attrs.oldObject);
    if (cur.configSource && !isDeepStrictEqual(cur.configSource, old.configSource)) {
      throw admissionForbidden(attrs, `node "${node}" is not allowed to update configSource to a new non-nil configSource`);
    }
    if (!isDeepStrictEqual(cur.taints ?? [], old.taints ?? [])) throw admissionForbidden(attrs, `node "${node}" is not allowed to modify taints`);
    const bad = forbiddenLabels(modifiedLabels(attrs.object.metadata.labels, attrs.oldObject.metadata.labels));
    if (bad.length > 0) throw admissionForbidden(attrs, `is not allowed to modify labels: ${bad.join(', ')}`);
  }
}

/** A copy of a claim without what a node may change in its status. */
function pvcComparable(o: KubeObject): Record<string, unknown> {
  const c = structuredClone(o) as KubeObject & { status?: Record<string, unknown> };
  delete c.metadata.resourceVersion;
  delete c.metadata.managedFields;
  if (c.status) {
    for (const f of ['capacity', 'conditions', 'allocatedResourceStatuses', 'allocatedResources']) delete c.status[f];
    if (Object.keys(c.status).length === 0) delete c.status;
  }
  return c;
}

/** persistentvolumeclaims: status updates of capacity and conditions (and expansion recovery state) only. */
export function admitPVC(node: string, attrs: AdmissionAttributes): void {
  if (attrs.subresource !== 'status') throw admissionForbidden(attrs, 'may only update PVC status');
  if (attrs.operation !== 'UPDATE' || !attrs.object || !attrs.oldObject) throw admissionForbidden(attrs, `unexpected operation "${attrs.operation}"`);
  const old = pvcComparable(attrs.oldObject);
  const cur = pvcComparable(attrs.object);
  if (!isDeepStrictEqual(old, cur)) {
    throw admissionForbidden(attrs, `node "${node}" is not allowed to update fields other than status.quantity and status.conditions: ${diff(old, cur)}`);
  }
}

/** A short "-old +new" account of the top-level differences (kube prints cmp.Diff). */
function diff(a: Record<string, unknown>, b: Record<string, unknown>): string {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !isDeepStrictEqual(a[k], b[k]));
  return keys.map((k) => `-${k}: ${JSON.stringify(a[k])} +${k}: ${JSON.stringify(b[k])}`).join('; ');
}

interface TokenRequest {
  spec?: { boundObjectRef?: { apiVersion?: string; kind?: string; name?: string; uid?: string } };
}

/** serviceaccounts/token: only tokens bound to a pod (by uid) running on the node. */
export async function admitServiceAccount(node: string, attrs: AdmissionAttributes, lookups: NodeRestrictionLookups): Promise<void> {
  if (attrs.operation !== 'CREATE' || attrs.subresource !== 'token') return;
  const ref = (attrs.object as TokenRequest | undefined)?.spec?.boundObjectRef;
  if (!ref || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name) throw admissionForbidden(attrs, 'node requested token not bound to a pod');
  if (!ref.uid) throw admissionForbidden(attrs, 'node requested token with a pod binding without a uid');
  const pod = await lookups.pod(attrs.namespace, ref.name);
  if (!pod) throw newNotFound({ group: '', resource: 'pod' }, ref.name);
  if (ref.uid !== pod.metadata.uid) {
    throw admissionForbidden(
      attrs,
      `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  if ((pod.spec as { nodeName?: string } | undefined)?.nodeName !== node) throw admissionForbidden(attrs, 'node requested token bound to a pod scheduled on a different node');
  await checkTokenAudience(attrs, pod, lookups, lookups.authorizer);
}

/** leases: only the node's own, in kube-node-lease. */
export function admitLease(node: string, attrs: AdmissionAttributes): void {
  if (attrs.namespace !== 'kube-node-lease') throw admissionForbidden(attrs, 'can only access leases in the "kube-node-lease" system namespace');
  const name = attrs.operation === 'CREATE' ? (attrs.object?.metadata.name ?? '') : attrs.name;
  if (name !== node) throw admissionForbidden(attrs, 'can only access node lease with the same name as the requesting node');
}

/** csinodes: only the node's own. */
export function admitCSINode(node: string, attrs: AdmissionAttributes): void {
  const name = attrs.operation === 'CREATE' ? (attrs.object?.metadata.name ?? '') : attrs.name;
  if (name !== node) throw admissionForbidden(attrs, 'can only access CSINode with the same name as the requesting node');
}

/** resourceslices: created and deleted only for the node itself. */
export function admitResourceSlice(node: string, attrs: AdmissionAttributes): void {
  const nodeName = (o: KubeObject | undefined): string | undefined => (o?.spec as { nodeName?: string } | undefined)?.nodeName;
  if (attrs.operation === 'CREATE' && nodeName(attrs.object) !== node) {
    throw admissionForbidden(attrs, 'can only create ResourceSlice with the same NodeName as the requesting node');
  }
  if (attrs.operation === 'DELETE' && nodeName(attrs.oldObject) !== node) {
    throw admissionForbidden(attrs, 'can only delete ResourceSlice with the same NodeName as the requesting node');
  }
}
