/**
 * metav1.LabelSelector objects (`{matchLabels, matchExpressions}` in workload specs): conversion
 * to a LabelSelector (metav1.LabelSelectorAsSelector) and validation (ValidateLabelSelector in
 * apimachinery v0.33 pkg/apis/meta/v1/validation), with kube's texts.
 */
import {
  type FieldError,
  type FieldPath,
  childPath,
  forbidden,
  indexPath,
  invalid,
  required,
  goQuote,
} from '../validation/field-error.js';
import { isQualifiedName, isValidLabelValue } from '../validation/label-values.js';
import { compareByteOrder } from './byte-order.js';
import { type LabelOperator, type LabelRequirement, newLabelRequirement } from './label-requirement.js';
import { type LabelSelector, everythingLabels, labelSelectorFromRequirements, nothingLabels } from './labels.js';
import { SelectorParseError } from './selector-parse-error.js';

/** metav1.LabelSelectorOperator values. */
export type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

/** metav1.LabelSelectorRequirement as it arrives in JSON (the operator is not yet trusted). */
export interface LabelSelectorRequirementObject {
  readonly key: string;
  readonly operator: LabelSelectorOperator | string;
  readonly values?: readonly string[] | null;
}

/** metav1.LabelSelector as it arrives in JSON. */
export interface LabelSelectorObject {
  readonly matchLabels?: Readonly<Record<string, string>> | null;
  readonly matchExpressions?: readonly LabelSelectorRequirementObject[] | null;
}

/** Options of ValidateLabelSelector. */
export interface LabelSelectorValidationOptions {
  /** Skip the label-value format check of matchExpressions values (kept for existing invalid data on update). */
  readonly allowInvalidLabelValueInSelector?: boolean;
  /** Accept operators this server does not know (SubjectAccessReview selectors from newer clients). */
  readonly allowUnknownOperatorInRequirement?: boolean;
}

const operatorMap: ReadonlyMap<string, LabelOperator> = new Map<string, LabelOperator>([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
]);

/**
 * metav1.LabelSelectorAsSelector: null/undefined selects nothing, an empty selector selects
 * everything. Throws SelectorParseError with kube's text, e.g. `"Foo" is not a valid label
 * selector operator` or `values: Invalid value: []string(nil): for 'in', 'notin' operators, ...`.
 * matchLabels are visited in key order (kube's map order is random).
 */
export function labelSelectorAsSelector(ps: LabelSelectorObject | null | undefined): LabelSelector {
  if (ps === null || ps === undefined) return nothingLabels;
  const matchLabels = ps.matchLabels ?? {};
  const matchExpressions = ps.matchExpressions ?? [];
  const labelKeys = Object.keys(matchLabels).sort(compareByteOrder);
  if (labelKeys.length + matchExpressions.length === 0) return everythingLabels;
  const requirements: LabelRequirement[] = [];
  for (const key of labelKeys) requirements.push(newLabelRequirement(key, '=', [matchLabels[key] as string]));
  for (const expr of matchExpressions) {
    const operator = operatorMap.get(expr.operator);
    if (operator === undefined) throw new SelectorParseError(`${goQuote(String(expr.operator))} is not a valid label selector operator`);
    // kube copies the values with append([]string(nil), ...): no values gives a nil slice.
    const values = expr.values && expr.values.length > 0 ? [...expr.values] : null;
    requirements.push(newLabelRequirement(expr.key, operator, values));
  }
  return labelSelectorFromRequirements(requirements.sort((a, b) => compareByteOrder(a.key, b.key)));
}

/** ValidateLabelName: the key as a qualified name, one Invalid error per failure. */
export function validateLabelName(name: string, path: FieldPath): FieldError[] {
  return isQualifiedName(name).map((msg) => invalid(path, name, msg));
}

/** ValidateLabels: every key a qualified name and every value a valid label value (in key order). */
export function validateLabels(labels: Readonly<Record<string, string>> | null | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of Object.keys(labels ?? {}).sort(compareByteOrder)) {
    const value = (labels as Record<string, string>)[key] as string;
    errs.push(...validateLabelName(key, path));
    for (const msg of isValidLabelValue(value)) errs.push(invalid(path, value, msg));
  }
  return errs;
}

/** ValidateLabelSelectorRequirement: operator known, values present exactly when the operator needs them. */
export function validateLabelSelectorRequirement(
  sr: LabelSelectorRequirementObject,
  opts: LabelSelectorValidationOptions,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const values = sr.values ?? [];
  switch (sr.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(required(childPath(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) {
        errs.push(forbidden(childPath(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      }
      break;
    default:
      if (!opts.allowUnknownOperatorInRequirement) errs.push(invalid(childPath(path, 'operator'), sr.operator, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(sr.key, childPath(path, 'key')));
  if (!opts.allowInvalidLabelValueInSelector) {
    values.forEach((value, i) => {
      for (const msg of isValidLabelValue(value)) errs.push(invalid(indexPath(childPath(path, 'values'), i), value, msg));
    });
  }
  return errs;
}

/** ValidateLabelSelector: field errors for a metav1.LabelSelector at path (none for null). */
export function validateLabelSelector(
  ps: LabelSelectorObject | null | undefined,
  opts: LabelSelectorValidationOptions,
  path: FieldPath,
): FieldError[] {
  if (ps === null || ps === undefined) return [];
  const errs = validateLabels(ps.matchLabels, childPath(path, 'matchLabels'));
  (ps.matchExpressions ?? []).forEach((expr, i) => {
    errs.push(...validateLabelSelectorRequirement(expr, opts, indexPath(childPath(path, 'matchExpressions'), i)));
  });
  return errs;
}
