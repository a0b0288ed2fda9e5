/**
 * NodeRestriction's pod rules: a node creates only mirror pods bound to itself, owned by its Node
 * (controller, no blockOwnerDeletion, its uid) and referencing no service account, secret,
 * config map, cluster trust bundle or claim; deletes, evicts and updates the status (not the labels
 * or resource claim statuses) only of pods bound to itself.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newNotFound } from '../../../apierrors/factories.js';
import { podConfigMapNames, podSecretNames } from '../../../authz/node/pod-references.js';
import type { AdmissionAttributes } from '../../interface.js';
import { admissionForbidden } from '../pod-shared/forbidden.js';
import { mirrorPodAnnotation, type Pod } from '../pod-shared/pod-types.js';
import { isDeepStrictEqual } from 'node:util';
import type { Authorizer } from '../../../authz/interface.js';
import type { AudienceLookups } from './audience.js';

/**
 * Reads what the rules need: a pod of a namespace, a node, and for token audiences claims, volumes
 * and CSIDrivers (undefined when absent), and the server's authorizer.
 */
export interface NodeRestrictionLookups extends AudienceLookups {
  pod(namespace: string, name: string): Promise<KubeObject | undefined>;
  node(name: string): Promise<KubeObject | undefined>;
  authorizer(): Authorizer | undefined;
}

const specOf = (o: KubeObject | undefined): Pod['spec'] => (o as Pod | undefined)?.spec ?? {};

/** pods (no subresource): create and delete. */
export async function admitPod(node: string, attrs: AdmissionAttributes, lookups: NodeRestrictionLookups): Promise<void> {
  if (attrs.operation === 'CREATE') return await admitPodCreate(node, attrs, lookups);
  if (attrs.operation === 'DELETE') {
    const existing = attrs.oldObject ?? (await lookups.pod(attrs.namespace, attrs.name));
    if (!existing) throw newNotFound({ group: '', resource: 'pod' }, attrs.name);
    if (specOf(existing)?.nodeName !== node) throw admissionForbidden(attrs, `node "${node}" can only delete pods with spec.nodeName set to itself`);
    return;
  }
  throw admissionForbidden(attrs, `unexpected operation "${attrs.operation}", node "${node}" can only create and delete mirror pods`);
}

async function admitPodCreate(node: string, attrs: AdmissionAttributes, lookups: NodeRestrictionLookups): Promise<void> {
  const pod = attrs.object as Pod;
  const deny = (why: string): Error => admissionForbidden(attrs, why);
  if (pod.metadata.annotations?.[mirrorPodAnnotation] === undefined) {
    throw deny(`pod does not have "${mirrorPodAnnotation}" annotation, node "${node}" can only create mirror pods`);
  }
  const spec = pod.spec ?? {};
  if (spec.nodeName !== node) throw deny(`node "${node}" can only create pods with spec.nodeName set to itself`);
  const owners = pod.metadata.ownerReferences ?? [];
  if (owners.length > 1) throw deny(`node "${node}" can only create pods with a single owner reference set to itself`);
  const owner = owners[0];
  if (!owner) throw deny(`node "${node}" can only create pods with an owner reference set to itself`);
  if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node) throw deny(`node "${node}" can only create pods with an owner reference set to itself`);
  if (owner.controller !== true) throw deny(`node "${node}" can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion === true) throw deny(`node "${node}" must not set blockOwnerDeletion on an owner reference`);
  const nodeObj = await lookups.node(node);
  if (!nodeObj) throw newNotFound({ group: '', resource: 'node' }, node);
  if (owner.uid !== nodeObj.metadata.uid) throw deny(`node ${node} UID mismatch: expected ${owner.uid} got ${nodeObj.metadata.uid ?? ''}`);
  if (spec.serviceAccountName) throw deny(`node "${node}" can not create pods that reference a service account`);
  if (podSecretNames(pod).size > 0) throw deny(`node "${node}" can not create pods that reference secrets`);
  if (podConfigMapNames(pod).size > 0) throw deny(`node "${node}" can not create pods that reference configmaps`);
  for (const v of spec.volumes ?? []) {
    for (const src of v.projected?.sources ?? []) {
      if (src.clusterTrustBundle) throw deny(`node "${node}" can not create pods that reference clustertrustbundles`);
    }
  }
  if ((spec.volumes ?? []).some((v) => v.persistentVolumeClaim)) throw deny(`node "${node}" can not create pods that reference persistentvolumeclaims`);
}

/** pods/status: updates of pods bound to the node, labels and resource claim statuses unchanged. */
export function admitPodStatus(node: string, attrs: AdmissionAttributes): void {
  if (attrs.operation !== 'UPDATE') throw admissionForbidden(attrs, `unexpected operation "${attrs.operation}"`);
  const old = attrs.oldObject as Pod | undefined;
  const cur = attrs.object as Pod | undefined;
  if (specOf(old)?.nodeName !== node) throw admissionForbidden(attrs, `node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
  if (!isDeepStrictEqual(old?.metadata.labels ?? {}, cur?.metadata.labels ?? {})) throw admissionForbidden(attrs, `node "${node}" cannot update labels through pod status`);
  const claims = (p: Pod | undefined): { name?: string; resourceClaimName?: string }[] =>
    ((p?.status as { resourceClaimStatuses?: { name?: string; resourceClaimName?: string }[] } | undefined)?.resourceClaimStatuses ?? []).map((s) => ({
      name: s.name ?? '',
      resourceClaimName: s.resourceClaimName,
    }));
  if (!isDeepStrictEqual(claims(old), claims(cur))) throw admissionForbidden(attrs, `node "${node}" cannot update resource claim statues`);
}

/** pods/eviction: only of pods bound to the node. */
export async function admitPodEviction(node: string, attrs: AdmissionAttributes, lookups: NodeRestrictionLookups): Promise<void> {
  if (attrs.operation !== 'CREATE') throw admissionForbidden(attrs, `unexpected operation ${attrs.operation}`);
  const name = attrs.name || attrs.object?.metadata.name || '';
  if (!name) throw admissionForbidden(attrs, 'could not determine pod from request data');
  const existing = await lookups.pod(attrs.namespace, name);
  if (!existing) throw newNotFound({ group: '', resource: 'pod' }, name);
  if (specOf(existing)?.nodeName !== node) throw admissionForbidden(attrs, `node ${node} can only evict pods with spec.nodeName set to itself`);
}
