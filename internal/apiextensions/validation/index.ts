/**
 * kube's CustomResourceDefinition validation (apiextensions-apiserver
 * pkg/apis/apiextensions/validation) over the internal form, which is the form Capstan stores
 * (v1beta1: a schema, subresources or columns shared by every version sit at the top level), so
 * field paths are kube's own: spec.validation.openAPIV3Schema... when the versions share one
 * schema, spec.versions[i].schema.openAPIV3Schema... when they differ. Entry points for create,
 * update and status update, and the NonStructuralSchema condition's inputs.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { childPath, GoNilSlice, indexPath, invalid, keyPath, required, type FieldError } from '../../validation/field-error.js';
import { validateImmutableField } from '../../registry/core/shared/field-immutable.js';
import { validateNames } from './names.js';
import { createOptions, type ValidationOptions } from './options.js';
import { asSchema, str, type Json } from './schema-walk.js';
import { validateSpec, versionsOf } from './spec.js';
import { updateOptions } from './update-options.js';

export { structuralSchemaErrors } from './non-structural.js';
export type { ValidationOptions } from './options.js';

const approvalAnnotation = 'api-approved.kubernetes.io';
const approvalDoc = 'see https://github.com/kubernetes/enhancements/pull/1111';

function specOf(obj: KubeObject): Json {
  return (asSchema(obj.spec) ?? {}) as Json;
}

/** Whether names are reserved for the Kubernetes community (k8s.io, kubernetes.io and their subdomains). */
export function isProtectedCommunityGroup(group: string): boolean {
  return ['k8s.io', 'kubernetes.io'].some((d) => group === d || group.endsWith(`.${d}`));
}

type ApprovalState = 'approved' | 'bypassed' | 'missing' | 'invalid';

function approvalState(obj: KubeObject): [ApprovalState, string] {
  const value = obj.metadata.annotations?.[approvalAnnotation] ?? '';
  if (!value) return ['missing', `protected groups must have approval annotation "${approvalAnnotation}", ${approvalDoc}`];
  if (value.startsWith('unapproved')) return ['bypassed', `not approved: "${value}"`];
  let ok = value.startsWith('/');
  if (!ok) {
    try {
      ok = new URL(value).protocol.length > 1;
    } catch {
      ok = false;
    }
  }
  if (!ok) return ['invalid', `protected groups must have approval annotation "${approvalAnnotation}" with either a URL or a reason starting with "unapproved", ${approvalDoc}`];
  return ['approved', ''];
}

/** validateAPIApproval: CRDs in protected groups carry the approval annotation. */
function validateAPIApproval(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  if (!isProtectedCommunityGroup(str(specOf(obj).group))) return [];
  const [state, reason] = approvalState(obj);
  if (old && approvalState(old)[0] === state) return [];
  const path = keyPath('metadata.annotations', approvalAnnotation);
  if (state === 'missing') return [required(path, reason)];
  if (state === 'invalid') return [invalid(path, obj.metadata.annotations?.[approvalAnnotation] ?? '', reason)];
  return [];
}

/** validatePreserveUnknownFields: v1 may not turn preserveUnknownFields on. */
function validatePreserveUnknownFields(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  if (old && specOf(old).preserveUnknownFields === true) return [];
  if (specOf(obj).preserveUnknownFields === true) {
    return [invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
  }
  return [];
}

/** ValidateCustomResourceDefinitionStatus: the accepted names. */
export function validateStatus(obj: KubeObject): FieldError[] {
  return validateNames(asSchema((asSchema(obj.status) as Json | undefined)?.acceptedNames) as Json | undefined, 'status.acceptedNames');
}

/** ValidateCustomResourceDefinitionStoredVersions. */
export function validateStoredVersions(obj: KubeObject): FieldError[] {
  const raw = (asSchema(obj.status) as Json | undefined)?.storedVersions;
  const stored = Array.isArray(raw) ? raw.map(str) : [];
  const path = 'status.storedVersions';
  if (stored.length === 0) return [invalid(path, Array.isArray(raw) ? [] : new GoNilSlice('string'), 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map<string, number>();
  stored.forEach((v, i) => remaining.set(v, i));
  for (const v of versionsOf(specOf(obj))) {
    const name = str(v.name);
    if (v.storage === true && !remaining.has(name)) errs.push(invalid(path, stored, `must have the storage version ${name}`));
    remaining.delete(name);
  }
  for (const [v, i] of remaining) {
    errs.push(
      invalid(
        indexPath(path, i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}

/** The metadata.name rule of a CRD: plural.group (the generic layer checks the DNS subdomain). */
function validateName(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const names = (asSchema(spec.names) ?? {}) as Json;
  const wanted = `${str(names.plural)}.${str(spec.group)}`;
  const detail = 'must be spec.names.plural+"."+spec.group';
  const errs: FieldError[] = [];
  // kube runs the name rule over generateName too, so a generated CRD name can never fit.
  const generateName = obj.metadata.generateName ?? '';
  if (generateName && generateName !== wanted) errs.push(invalid('metadata.generateName', generateName, detail));
  const name = obj.metadata.name ?? '';
  if (name && name !== wanted) errs.push(invalid('metadata.name', name, detail));
  return errs;
}

/**
 * ValidateCustomResourceDefinition on the stored internal form (what the CRD strategy sees on
 * create). opts: kube's create options unless a test narrows them. Never mutates.
 */
export function validateCustomResourceDefinition(obj: KubeObject, opts: ValidationOptions = createOptions): FieldError[] {
  return [
    ...validateName(obj),
    ...validateSpec(specOf(obj), opts),
    ...validateStatus(obj),
    ...validateStoredVersions(obj),
    ...validateAPIApproval(obj, undefined),
    ...validatePreserveUnknownFields(obj, undefined),
  ];
}

/** ValidateCustomResourceDefinitionUpdate on the stored internal forms of both objects. Never mutates. */
export function validateCustomResourceDefinitionUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const opts = updateOptions(old);
  const spec = specOf(obj);
  const oldSpec = specOf(old);
  const names = (asSchema(spec.names) ?? {}) as Json;
  const oldNames = (asSchema(oldSpec.names) ?? {}) as Json;
  const errs = validateSpec(spec, opts);
  if (opts.requireImmutableNames) {
    errs.push(...validateImmutableField(str(spec.scope), str(oldSpec.scope), 'spec.scope'));
    errs.push(...validateImmutableField(str(names.kind), str(oldNames.kind), childPath('spec.names', 'kind')));
  }
  errs.push(...validateImmutableField(str(spec.group), str(oldSpec.group), 'spec.group'));
  errs.push(...validateImmutableField(str(names.plural), str(oldNames.plural), childPath('spec.names', 'plural')));
  return [...errs, ...validateStatus(obj), ...validateStoredVersions(obj), ...validateAPIApproval(obj, old), ...validatePreserveUnknownFields(obj, old)];
}

/** ValidateUpdateCustomResourceDefinitionStatus (metadata is the generic layer's). Never mutates. */
export function validateCustomResourceDefinitionStatusUpdate(obj: KubeObject): FieldError[] {
  return validateStatus(obj);
}
