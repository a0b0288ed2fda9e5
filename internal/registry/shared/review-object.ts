/**
 * What the review resources (TokenReview, SelfSubjectReview, the access reviews) share: they are
 * create-only and keep nothing, so the steps a stored resource's beforeCreate takes on the request
 * object (kube's create handler: rest.WipeObjectMetaSystemFields and
 * rest.EnsureObjectNamespaceMatchesRequestNamespace) are taken here, and the answer carries its
 * metadata as kube writes an ObjectMeta nobody stored: in Go field order, `creationTimestamp: null`.
 */
import { objectMetaFieldOrder, type KubeObject, type ObjectMeta } from '../../../api/meta/types.js';
import { newBadRequest } from '../../apierrors/factories.js';
import type { RequestContext } from '../../request/context.js';
import type { SelectableFields } from '../generic/strategy.js';

/** A review has no field selectors beyond metadata.name and metadata.namespace. */
export const reviewSelectableFields: SelectableFields = { extra: [], style: 'meta' };

/**
 * Prepares the request object as kube's create handler does before calling the storage: wipes the
 * system fields a client may not set and puts the URL's namespace on a namespaced object (400 when
 * the object names another). A cluster-scoped review loses any namespace. Mutates obj.
 */
export function prepareReviewRequest(ctx: RequestContext, obj: KubeObject, namespaced: boolean): void {
  const meta = obj.metadata;
  delete meta.creationTimestamp;
  delete meta.uid;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  const requestNamespace = namespaced ? ctx.requestInfo.namespace : '';
  const own = meta.namespace ?? '';
  if (own === requestNamespace) return;
  if (own === '') meta.namespace = requestNamespace;
  else if (requestNamespace === '') delete meta.namespace;
  else throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
}

/**
 * The metadata of a review's answer as kube serializes it: Go's field order, empty values left
 * out, and `creationTimestamp: null` when nothing set it (a zero metav1.Time). Returns a new object.
 */
export function reviewResponseMeta(meta: ObjectMeta): ObjectMeta {
  const out: Record<string, unknown> = {};
  for (const key of objectMetaFieldOrder) {
    const v = meta[key];
    if (key === 'creationTimestamp') out[key] = v ?? null;
    else if (!isEmpty(v)) out[key] = v;
  }
  return out as ObjectMeta;
}

/** Go's omitempty: absent, "", 0, and empty lists and maps are left out. */
function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}
