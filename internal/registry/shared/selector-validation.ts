/**
 * Label selector checks of the workload specs: required, well formed, not empty (with the kind
 * kube names in its message), and parsed for matching against the template's labels.
 */
import { labelSelectorAsSelector, validateLabelSelector, type LabelSelectorObject } from '../../selectors/label-selector-object.js';
import type { LabelSelector } from '../../selectors/labels.js';
import { invalid, required, type FieldError } from '../../validation/field-error.js';
import { asObject } from '../core/shared/json-value.js';

/** The result of checking a spec's selector: errors, and the parsed selector when it parses. */
export interface CheckedSelector {
  readonly errs: FieldError[];
  readonly selector: LabelSelector | undefined;
  readonly raw: LabelSelectorObject | undefined;
}

/** How a selector is checked. */
export interface SelectorRules {
  /** A missing selector is "Required value" (apps/v1 kinds); otherwise it selects nothing. */
  readonly required: boolean;
  /** The word in "empty selector is invalid for <word>"; absent when an empty selector is allowed. */
  readonly emptyWord?: string;
  /** The detail of "invalid label selector" when it does not parse ('' for StatefulSets). */
  readonly unparsableDetail?: string;
  /** Report a selector that does not parse (default true; Jobs only skip the template match). */
  readonly reportUnparsable?: boolean;
}

/** Checks spec.selector as a metav1.LabelSelector at path. Never mutates. */
export function checkLabelSelector(value: unknown, path: string, rules: SelectorRules): CheckedSelector {
  const raw = asObject(value) as LabelSelectorObject | undefined;
  const errs: FieldError[] = [];
  if (!raw) {
    if (rules.required) errs.push(required(path, ''));
  } else {
    errs.push(...validateLabelSelector(raw, { allowInvalidLabelValueInSelector: false }, path));
    const count = Object.keys(raw.matchLabels ?? {}).length + (raw.matchExpressions ?? []).length;
    if (count === 0 && rules.emptyWord) errs.push(invalid(path, raw, `empty selector is invalid for ${rules.emptyWord}`));
  }
  let selector: LabelSelector | undefined;
  try {
    selector = labelSelectorAsSelector(raw ?? null);
  } catch {
    if (rules.reportUnparsable !== false) errs.push(invalid(path, raw ?? null, rules.unparsableDetail ?? 'invalid label selector'));
  }
  return { errs, selector, raw };
}
