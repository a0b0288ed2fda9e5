/**
 * Validation of metadata every object carries (kube's ValidateObjectMeta and
 * ValidateObjectMetaUpdate, with the core types' finalizer rule), producing field errors with
 * kube's messages.
 */
import type { KubeObject, ObjectMeta } from '../../../api/meta/types.js';
import {
  childPath,
  forbidden,
  indexPath,
  invalid,
  required,
  tooLong,
  type FieldError,
} from '../../validation/field-error.js';
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
} from '../../validation/label-values.js';

/** Annotations may hold at most this many bytes in keys and values together. */
export const totalAnnotationSizeLimitBytes = 256 * 1024;

/** Finalizers without a "/" that kube accepts. */
const standardFinalizers = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** Checks a name (or, with prefix, a generateName) and returns kube's messages. */
export type NameValidator = (name: string, prefix: boolean) => string[];

function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
}

/** NameIsDNSSubdomain. */
export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
/** NameIsDNSLabel. */
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
/** NameIsDNS1035Label (service names). */
export const nameIsDNS1035Label: NameValidator = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);
/** path.ValidatePathSegmentName: only ".", ".." and "/" or "%" are refused. */
export const nameIsPathSegment: NameValidator = (name, prefix) =>
  prefix ? isValidPathSegmentName(name).filter((m) => !m.startsWith('may not be')) : isValidPathSegmentName(name);

/** The validator for a strategy's nameValidation setting. */
export function nameValidatorFor(kind: 'subdomain' | 'label' | 'dns1035-label' | 'path-segment'): NameValidator {
  switch (kind) {
    case 'label':
      return nameIsDNSLabel;
    case 'dns1035-label':
      return nameIsDNS1035Label;
    case 'path-segment':
      return nameIsPathSegment;
    default:
      return nameIsDNSSubdomain;
  }
}

/** Validates a label map at path (keys qualified names, values label values). */
export function validateLabels(labels: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (labels === undefined || labels === null) return errs;
  if (typeof labels !== 'object' || Array.isArray(labels)) return [invalid(path, labels, 'must be a map of string keys to string values')];
  for (const [k, v] of Object.entries(labels as Record<string, unknown>)) {
    for (const msg of isQualifiedName(k)) errs.push(invalid(path, k, msg));
    if (typeof v !== 'string') {
      errs.push(invalid(path, v, 'label values must be strings'));
      continue;
    }
    for (const msg of isValidLabelValue(v)) errs.push(invalid(path, v, msg));
  }
  return errs;
}

/** Validates annotations: qualified keys (compared lowercased, as kube does) and the 256 KiB total. */
export function validateAnnotations(annotations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (annotations === undefined || annotations === null) return errs;
  if (typeof annotations !== 'object' || Array.isArray(annotations)) {
    return [invalid(path, annotations, 'must be a map of string keys to string values')];
  }
  let total = 0;
  for (const [k, v] of Object.entries(annotations as Record<string, unknown>)) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(path, k, msg));
    if (typeof v !== 'string') {
      errs.push(invalid(path, v, 'annotation values must be strings'));
      continue;
    }
    total += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (total > totalAnnotationSizeLimitBytes) errs.push(tooLong(path, totalAnnotationSizeLimitBytes));
  return errs;
}

function validateFinalizers(finalizers: unknown, path: string, qualifiedOnly = false): FieldError[] {
  const errs: FieldError[] = [];
  if (finalizers === undefined || finalizers === null) return errs;
  if (!Array.isArray(finalizers)) return [invalid(path, finalizers, 'must be a list of strings')];
  let orphan = false;
  let foreground = false;
  for (const f of finalizers) {
    if (typeof f !== 'string') {
      errs.push(invalid(path, f, 'finalizers must be strings'));
      continue;
    }
    for (const msg of isQualifiedName(f)) errs.push(invalid(path, f, msg));
    if (!qualifiedOnly && !f.includes('/') && !standardFinalizers.has(f)) {
      errs.push(invalid(path, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
    if (f === 'orphan') orphan = true;
    if (f === 'foregroundDeletion') foreground = true;
  }
  if (orphan && foreground) {
    errs.push(invalid(path, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

function validateOwnerReferences(refs: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (refs === undefined || refs === null) return errs;
  if (!Array.isArray(refs)) return [invalid(path, refs, 'must be a list of owner references')];
  const controllers: string[] = [];
  refs.forEach((ref: unknown, i) => {
    const p = indexPath(path, i);
    if (typeof ref !== 'object' || ref === null) {
      errs.push(invalid(p, ref, 'must be an object'));
      return;
    }
    const r = ref as Record<string, unknown>;
    const apiVersion = typeof r.apiVersion === 'string' ? r.apiVersion : '';
    const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    if (version === '') errs.push(invalid(childPath(p, 'apiVersion'), apiVersion, 'version must not be empty'));
    if (typeof r.kind !== 'string' || r.kind === '') errs.push(invalid(childPath(p, 'kind'), r.kind ?? '', 'kind must not be empty'));
    if (typeof r.name !== 'string' || r.name === '') errs.push(invalid(childPath(p, 'name'), r.name ?? '', 'name must not be empty'));
    if (typeof r.uid !== 'string' || r.uid === '') errs.push(invalid(childPath(p, 'uid'), r.uid ?? '', 'uid must not be empty'));
    if (r.controller === true) controllers.push(`${String(r.kind)}/${String(r.name)}`);
  });
  if (controllers.length > 1) {
    errs.push(
      invalid(path, refs, `Only one reference can have Controller set to true. Found "true" in references for ${controllers.join(' and ')}`),
    );
  }
  return errs;
}

/**
 * ValidateObjectMeta: name or generateName, namespace presence for the scope, labels,
 * annotations, owner references and finalizers.
 */
export function validateObjectMeta(meta: ObjectMeta, namespaced: boolean, nameFn: NameValidator, qualifiedFinalizerNames = false): FieldError[] {
  const errs: FieldError[] = [];
  const p = 'metadata';
  if (meta.generateName) for (const msg of nameFn(meta.generateName, true)) errs.push(invalid(childPath(p, 'generateName'), meta.generateName, msg));
  if (!meta.name) errs.push(required(childPath(p, 'name'), 'name or generateName is required'));
  else for (const msg of nameFn(meta.name, false)) errs.push(invalid(childPath(p, 'name'), meta.name, msg));
  if (namespaced) {
    if (!meta.namespace) errs.push(required(childPath(p, 'namespace'), ''));
    else for (const msg of isDNS1123Label(meta.namespace)) errs.push(invalid(childPath(p, 'namespace'), meta.namespace, msg));
  } else if (meta.namespace) {
    errs.push(forbidden(childPath(p, 'namespace'), 'not allowed on this type'));
  }
  if (meta.generation !== undefined && (typeof meta.generation !== 'number' || meta.generation < 0)) {
    errs.push(invalid(childPath(p, 'generation'), meta.generation, 'must be greater than or equal to 0'));
  }
  errs.push(...validateLabels(meta.labels, childPath(p, 'labels')));
  errs.push(...validateAnnotations(meta.annotations, childPath(p, 'annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, childPath(p, 'ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, childPath(p, 'finalizers'), qualifiedFinalizerNames));
  return errs;
}

function sameValue(a: unknown, b: unknown): boolean {
  return (a ?? null) === (b ?? null);
}

/** ValidateObjectMetaUpdate: identity and timestamps immutable, no new finalizers while deleting. */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta, qualifiedFinalizerNames = false): FieldError[] {
  const errs: FieldError[] = [];
  const p = 'metadata';
  if (old.deletionTimestamp) {
    const before = new Set(old.finalizers ?? []);
    const added = [...new Set(meta.finalizers ?? [])].filter((f) => !before.has(f)).sort();
    if (added.length > 0) {
      errs.push(
        forbidden(
          childPath(p, 'finalizers'),
          `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
        ),
      );
    }
  }
  if (!meta.resourceVersion) errs.push(invalid(childPath(p, 'resourceVersion'), meta.resourceVersion ?? '', 'must be specified for an update'));
  if ((meta.generation ?? 0) < (old.generation ?? 0)) {
    errs.push(invalid(childPath(p, 'generation'), meta.generation ?? 0, 'must not be decremented'));
  }
  const immutable: Array<keyof ObjectMeta> = ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds'];
  for (const f of immutable) {
    if (!sameValue(meta[f], old[f])) errs.push(invalid(childPath(p, f), meta[f] ?? '', 'field is immutable'));
  }
  errs.push(...validateLabels(meta.labels, childPath(p, 'labels')));
  errs.push(...validateAnnotations(meta.annotations, childPath(p, 'annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, childPath(p, 'ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, childPath(p, 'finalizers'), qualifiedFinalizerNames));
  return errs;
}

/** True when obj.metadata is a JSON object (anything else is refused before validation). */
export function hasObjectMeta(obj: KubeObject): boolean {
  return typeof obj.metadata === 'object' && obj.metadata !== null && !Array.isArray(obj.metadata);
}
