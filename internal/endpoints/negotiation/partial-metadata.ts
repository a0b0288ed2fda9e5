/**
 * meta.k8s.io PartialObjectMetadata and PartialObjectMetadataList: an object (or a list) reduced
 * to its metadata, as a client asks with `Accept: application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1`.
 * Asking for the single form of a list (or the list form of one object) is 406, as in kube.
 */
import type { KubeObject, ListMeta } from '../../../api/meta/types.js';
import { StatusError } from '../../apierrors/status-error.js';

/** The metadata-only form of obj. */
export function asPartialObjectMetadata(obj: KubeObject, version: 'v1' | 'v1beta1'): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata };
}

/** The metadata-only form of a list (kube writes "items": null for an empty one). */
export function asPartialObjectMetadataList(items: readonly KubeObject[], meta: ListMeta, version: 'v1' | 'v1beta1'): Record<string, unknown> {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: meta,
    items: items.length === 0 ? null : items.map((o) => asPartialObjectMetadata(o, version)),
  };
}

/** The Go type kube names in its messages (*core.ConfigMap, *apps.DeploymentList). */
function goTypeName(group: string, kind: string): string {
  const pkg = group === '' ? 'core' : (group.split('.')[0] ?? group);
  return `*${pkg}.${kind}`;
}

/** 406 for PartialObjectMetadataList asked of one object, or PartialObjectMetadata asked of a list. */
export function checkPartialShape(as: string, collection: boolean, group: string, kind: string): void {
  if (as === 'PartialObjectMetadata' && collection) {
    throw new StatusError(406, 'NotAcceptable', `you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(group, `${kind}List`)})`);
  }
  if (as === 'PartialObjectMetadataList' && !collection) {
    throw new StatusError(406, 'NotAcceptable', `you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeName(group, kind)})`);
  }
}
