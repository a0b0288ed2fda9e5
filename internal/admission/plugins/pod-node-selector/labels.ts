/**
 * The label-set helpers PodNodeSelector uses (k8s.io/apimachinery labels): a "k=v,k2=v2" selector
 * as a map, conflicts, merging and whitelists.
 */
import { isQualifiedName, isValidLabelValue } from '../../../validation/label-values.js';

/** labels.ConvertSelectorToLabelsMap: "k=v,..." to a map; throws with kube's message on another form. */
export function selectorToLabelsMap(selector: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!selector) return out;
  for (const term of selector.split(',')) {
    const parts = term.split('=');
    if (parts.length !== 2) throw new Error(`invalid selector: [${parts.join(' ')}]`);
    const key = (parts[0] as string).trim();
    const value = (parts[1] as string).trim();
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length > 0) throw new Error(`Invalid value: "${key}": ${keyErrs.join('; ')}`);
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length > 0) throw new Error(`Invalid value: "${value}": ${valueErrs.join('; ')}`);
    out.set(key, value);
  }
  return out;
}

/** labels.Conflicts: a key both sets give different values. */
export function conflicts(a: ReadonlyMap<string, string>, b: Readonly<Record<string, string>>): boolean {
  for (const [k, v] of a) if (k in b && b[k] !== v) return true;
  return false;
}

/** labels.AreLabelsInWhiteList: every label is in the whitelist with its value (an empty whitelist allows all). */
export function inWhitelist(labels: Readonly<Record<string, string>>, whitelist: ReadonlyMap<string, string>): boolean {
  if (whitelist.size === 0) return true;
  return Object.entries(labels).every(([k, v]) => whitelist.get(k) === v);
}
