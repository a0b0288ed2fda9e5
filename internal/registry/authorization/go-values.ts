/**
 * The bad values of the access reviews' validation errors, printed as kube's field errors print
 * them: a NonResourceAttributes struct in Go's `%#v` form, an ObjectMeta through its generated
 * protobuf String() (`&ObjectMeta{Name:x,...}`).
 */
import type { ManagedFieldsEntry, ObjectMeta } from '../../../api/meta/types.js';
import { GoLiteral, goQuote } from '../../validation/field-error.js';
import { compareByteOrder } from '../../selectors/byte-order.js';
import type { NonResourceAttributesSpec } from './access-review-types.js';

/** `authorization.NonResourceAttributes{Path:"/x", Verb:"get"}`. */
export function goNonResourceAttributes(a: NonResourceAttributesSpec): GoLiteral {
  return new GoLiteral(`authorization.NonResourceAttributes{Path:${goQuote(a.path ?? '')}, Verb:${goQuote(a.verb ?? '')}}`);
}

/** Go's time.Time String() of an RFC 3339 time (UTC), or of the zero time. */
function goTime(t: string | null | undefined): string {
  if (!t) return '0001-01-01 00:00:00 +0000 UTC';
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return '0001-01-01 00:00:00 +0000 UTC';
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} +0000 UTC`;
}

function goMap(m: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(m ?? {}).sort(compareByteOrder);
  return `map[string]string{${keys.map((k) => `${k}: ${(m as Record<string, string>)[k]},`).join('')}}`;
}

function goManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): string {
  const items = (entries ?? []).map(
    (e) =>
      `ManagedFieldsEntry{Manager:${e.manager ?? ''},Operation:${e.operation ?? ''},APIVersion:${e.apiVersion ?? ''},` +
      `Time:${e.time ? goTime(e.time) : '<nil>'},FieldsType:${e.fieldsType ?? ''},FieldsV1:${e.fieldsV1 === undefined ? 'nil' : JSON.stringify(e.fieldsV1)},` +
      `Subresource:${e.subresource ?? ''},},`,
  );
  return `[]ManagedFieldsEntry{${items.join('')}}`;
}

/** An ObjectMeta as its generated String() prints it (what kube's "must be empty" error shows). */
export function goObjectMeta(m: ObjectMeta): GoLiteral {
  const owners = (m.ownerReferences ?? []).map(
    (o) =>
      `OwnerReference{Kind:${o.kind},Name:${o.name},UID:${o.uid},APIVersion:${o.apiVersion},` +
      `Controller:${o.controller === undefined ? 'nil' : `*${o.controller}`},BlockOwnerDeletion:${o.blockOwnerDeletion === undefined ? 'nil' : `*${o.blockOwnerDeletion}`},},`,
  );
  const text =
    `&ObjectMeta{Name:${m.name ?? ''},GenerateName:${m.generateName ?? ''},Namespace:${m.namespace ?? ''},SelfLink:${m.selfLink ?? ''},` +
    `UID:${m.uid ?? ''},ResourceVersion:${m.resourceVersion ?? ''},Generation:${m.generation ?? 0},` +
    `CreationTimestamp:${goTime(m.creationTimestamp)},DeletionTimestamp:${m.deletionTimestamp ? goTime(m.deletionTimestamp) : '<nil>'},` +
    `DeletionGracePeriodSeconds:${m.deletionGracePeriodSeconds === undefined ? 'nil' : `*${m.deletionGracePeriodSeconds}`},` +
    `Labels:${goMap(m.labels)},Annotations:${goMap(m.annotations)},OwnerReferences:[]OwnerReference{${owners.join('')}},` +
    `Finalizers:[${(m.finalizers ?? []).join(' ')}],ManagedFields:${goManagedFields(m.managedFields)},}`;
  return new GoLiteral(text);
}
