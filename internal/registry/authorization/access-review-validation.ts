/**
 * Validation of the access reviews as kube's pkg/apis/authorization/validation does it (1.33):
 * exactly one of resourceAttributes and nonResourceAttributes, a user or a group for the reviews
 * that name a subject, well-formed field and label selectors (unknown operators allowed, so newer
 * clients can ask), metadata empty but for managedFields (and a LocalSubjectAccessReview's
 * namespace, which its resourceAttributes must repeat). Errors come back in kube's order.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { newInvalid } from '../../apierrors/factories.js';
import type { StatusError } from '../../apierrors/status-error.js';
import { validateLabelSelectorRequirement } from '../../selectors/label-selector-object.js';
import { childPath, fieldErrorCause, forbidden, indexPath, invalid, required, type FieldError } from '../../validation/field-error.js';
import type { AccessReviewSpec, ResourceAttributesSpec, SelectorAttributesSpec, SelectorRequirementSpec } from './access-review-types.js';
import { goNonResourceAttributes, goObjectMeta } from './go-values.js';

/** ValidateFieldSelectorRequirement with AllowUnknownOperatorInRequirement. */
function validateFieldRequirement(r: SelectorRequirementSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!r.key) errs.push(required(childPath(path, 'key'), 'must be specified'));
  const values = r.values ?? [];
  if ((r.operator === 'In' || r.operator === 'NotIn') && values.length === 0) {
    errs.push(required(childPath(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
  }
  if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && values.length > 0) {
    errs.push(forbidden(childPath(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  }
  return errs;
}

function validateSelector(selector: SelectorAttributesSpec | null | undefined, path: string, labels: boolean): FieldError[] {
  if (!selector) return [];
  const errs: FieldError[] = [];
  const raw = selector.rawSelector ?? '';
  const requirements = selector.requirements ?? [];
  if (raw.length > 0 && requirements.length > 0) {
    errs.push(invalid(childPath(path, 'rawSelector'), raw, 'may not specified at the same time as requirements'));
  }
  if (raw.length === 0 && requirements.length === 0) {
    errs.push(required(childPath(path, 'requirements'), `when ${path} is specified, requirements or rawSelector is required`));
  }
  requirements.forEach((r, i) => {
    const at = indexPath(childPath(path, 'requirements'), i);
    if (labels) {
      const req = { key: r.key ?? '', operator: r.operator ?? '', values: r.values ?? [] };
      errs.push(...validateLabelSelectorRequirement(req, { allowUnknownOperatorInRequirement: true }, at));
    } else {
      errs.push(...validateFieldRequirement(r, at));
    }
  });
  return errs;
}

function validateResourceAttributes(ra: ResourceAttributesSpec | null | undefined): FieldError[] {
  if (!ra) return [];
  const path = 'spec.resourceAttributes';
  return [...validateSelector(ra.fieldSelector, `${path}.fieldSelector`, false), ...validateSelector(ra.labelSelector, `${path}.labelSelector`, true)];
}

/**
 * ValidateSubjectAccessReviewSpec (withSubject: user or groups required) or
 * ValidateSelfSubjectAccessReviewSpec (without).
 */
export function validateAccessReviewSpec(spec: AccessReviewSpec, withSubject: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    errs.push(invalid('spec.nonResourceAttributes', goNonResourceAttributes(spec.nonResourceAttributes), 'cannot be specified in combination with resourceAttributes'));
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    errs.push(invalid('spec.resourceAttributes', null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  if (withSubject && !spec.user && (spec.groups ?? []).length === 0) {
    errs.push(invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  }
  errs.push(...validateResourceAttributes(spec.resourceAttributes));
  return errs;
}

/** Whether metadata is empty apart from managedFields (and, when allowed, the namespace). */
function metadataEmpty(obj: KubeObject, allowNamespace: boolean): boolean {
  for (const [key, value] of Object.entries(obj.metadata)) {
    if (key === 'managedFields' || (allowNamespace && key === 'namespace')) continue;
    if (value === undefined || value === null || value === '' || value === 0) continue;
    if (typeof value === 'object' && Object.keys(value).length === 0) continue;
    return false;
  }
  return true;
}

/** ValidateSubjectAccessReview / ValidateSelfSubjectAccessReview. */
export function validateAccessReview(obj: KubeObject, withSubject: boolean): FieldError[] {
  const errs = validateAccessReviewSpec(specOf(obj), withSubject);
  if (!metadataEmpty(obj, false)) errs.push(invalid('metadata', goObjectMeta(obj.metadata), 'must be empty'));
  return errs;
}

/** ValidateLocalSubjectAccessReview. */
export function validateLocalAccessReview(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const errs = validateAccessReviewSpec(spec, true);
  if (!metadataEmpty(obj, true)) errs.push(invalid('metadata', goObjectMeta(obj.metadata), 'must be empty except for namespace'));
  const namespace = obj.metadata.namespace ?? '';
  if (spec.resourceAttributes && (spec.resourceAttributes.namespace ?? '') !== namespace) {
    errs.push(invalid('spec.resourceAttributes.namespace', spec.resourceAttributes.namespace ?? '', 'must match metadata.namespace'));
  }
  if (spec.nonResourceAttributes) {
    errs.push(invalid('spec.nonResourceAttributes', goNonResourceAttributes(spec.nonResourceAttributes), 'disallowed on this kind of request'));
  }
  return errs;
}

/** The review's spec ({} when absent). */
export function specOf(obj: KubeObject): AccessReviewSpec {
  const spec = obj.spec;
  return typeof spec === 'object' && spec !== null ? (spec as AccessReviewSpec) : {};
}

/**
 * The 422 kube answers an invalid review with. Its decoded internal object has no kind, so kube
 * names the kind "" (`.authorization.k8s.io "" is invalid: ...`) and leaves it out of details.
 */
export function invalidReview(errs: readonly FieldError[]): StatusError | undefined {
  if (errs.length === 0) return undefined;
  const err = newInvalid('authorization.k8s.io', '', '', errs.map(fieldErrorCause));
  if (err.status.details) delete (err.status.details as { kind?: string }).kind;
  return err;
}
