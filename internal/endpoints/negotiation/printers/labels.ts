/**
 * Label maps and label selectors as the printers render them: labels.FormatLabels (sorted
 * "k=v" pairs, "<none>" when empty) and metav1.FormatLabelSelector (the canonical selector string,
 * "<none>" when it selects everything or nothing, "<error>" when it cannot be converted).
 */
import { compareByteOrder } from '../../../selectors/byte-order.js';
import { labelSelectorAsSelector, type LabelSelectorObject } from '../../../selectors/label-selector-object.js';
import { asObject } from './json-fields.js';

/** labels.FormatLabels: "k=v" pairs sorted as strings and joined by commas, or "<none>". Pure. */
export function formatLabels(labels: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(labels).map(([k, v]) => `${k}=${v}`);
  // labels.Set.String sorts the joined pairs, not the keys ("a.b=1" sorts before "a=2").
  pairs.sort(compareByteOrder);
  return pairs.length === 0 ? '<none>' : pairs.join(',');
}

/**
 * metav1.LabelSelectorAsSelector(selector).String(): '' for a missing or empty selector, or
 * undefined when the selector does not convert (an unknown operator, a bad key or value).
 */
export function labelSelectorString(selector: unknown): string | undefined {
  const ps = asObject(selector);
  try {
    return labelSelectorAsSelector(ps ? (ps as LabelSelectorObject) : null).toString();
  } catch {
    return undefined;
  }
}

/** metav1.FormatLabelSelector: the selector string, "<none>" when empty, "<error>" when invalid. */
export function formatLabelSelector(selector: unknown): string {
  const s = labelSelectorString(selector);
  if (s === undefined) return '<error>';
  return s === '' ? '<none>' : s;
}
