/**
 * What a pod update may change in spec (kube's ValidatePodUpdate): container and init container
 * images, activeDeadlineSeconds (set, or lowered), additions to tolerations, removals of
 * scheduling gates, additions to a gated pod's nodeSelector, and terminationGracePeriodSeconds
 * from negative to 1. Anything else is
 * Forbidden with kube's "pod updates may not change fields other than ..." text.
 */
import { childPath, forbidden, indexPath, invalid, required, type FieldError } from '../../../validation/field-error.js';
import { stableStringify } from '../../generic/object-meta.js';
import { arrayAt, asObject, stringAt, type JsonObject } from './json-value.js';
import { inclusiveRangeError } from './ports.js';
import { semanticEqual } from './semantic-equal.js';

/** The fields kube lists as updatable, joined as its message joins them. */
export const updatablePodSpecFields =
  '`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,' +
  '`spec.tolerations` (only additions to existing tolerations),' +
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

const maxInt32 = 2147483647;

/** ValidateContainerUpdates: same count, and every image present and untrimmed. */
function validateContainerUpdates(next: unknown[], prev: unknown[], path: string): { errs: FieldError[]; stop: boolean } {
  if (next.length !== prev.length) return { errs: [forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  next.forEach((raw, i) => {
    const image = stringAt(asObject(raw), 'image');
    const p = childPath(indexPath(path, i), 'image');
    if (!image) errs.push(required(p, ''));
    if (image.trim() !== image) errs.push(invalid(p, image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

/** Only tolerations added; an existing one may change nothing but tolerationSeconds. */
function validateOnlyAddedTolerations(next: unknown[], prev: unknown[], path: string): FieldError[] {
  for (const old of prev) {
    const found = next.some((n) => {
      const withSeconds = { ...asObject(old), tolerationSeconds: asObject(n)?.tolerationSeconds };
      return semanticEqual(withSeconds, n);
    });
    if (!found) return [forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return [];
}

/** Only scheduling gates removed. */
function validateOnlyDeletedSchedulingGates(next: unknown[], prev: unknown[], path: string): FieldError[] {
  const before = new Set(prev.map((g) => stringAt(asObject(g), 'name')));
  const errs: FieldError[] = [];
  next.forEach((g, i) => {
    const name = stringAt(asObject(g), 'name');
    if (!before.has(name)) {
      errs.push(forbidden(childPath(indexPath(path, i), 'name'), `only deletion is allowed, but found new scheduling gate '${name}'`));
    }
  });
  return errs;
}

/** A short rendering of what differs, in place of Go's cmp.Diff of the two specs. */
function specDiff(prev: JsonObject, next: JsonObject): string {
  const keys = [...new Set([...Object.keys(prev), ...Object.keys(next)])].sort();
  const lines = ['  core.PodSpec{'];
  for (const k of keys) {
    if (semanticEqual(prev[k], next[k])) continue;
    if (prev[k] !== undefined) lines.push(`- \t${k}: ${stableStringify(prev[k])},`);
    if (next[k] !== undefined) lines.push(`+ \t${k}: ${stableStringify(next[k])},`);
  }
  lines.push('  }');
  return lines.join('\n');
}

/** The spec-update rules of ValidatePodUpdate for next against prev (both pod specs). Never mutates. */
export function validatePodSpecUpdate(next: JsonObject, prev: JsonObject): FieldError[] {
  const specPath = 'spec';
  const errs: FieldError[] = [];
  for (const key of ['containers', 'initContainers']) {
    const r = validateContainerUpdates(arrayAt(next, key), arrayAt(prev, key), childPath(specPath, key));
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const ads = next.activeDeadlineSeconds;
  const oldAds = prev.activeDeadlineSeconds;
  const adsPath = childPath(specPath, 'activeDeadlineSeconds');
  if (ads !== undefined && ads !== null) {
    if (typeof ads !== 'number' || ads < 0 || ads > maxInt32) return [...errs, invalid(adsPath, ads, inclusiveRangeError(0, maxInt32))];
    if (typeof oldAds === 'number' && oldAds < ads) return [...errs, invalid(adsPath, ads, 'must be less than or equal to previous value')];
  } else if (oldAds !== undefined && oldAds !== null) {
    errs.push(invalid(adsPath, null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...validateOnlyAddedTolerations(arrayAt(next, 'tolerations'), arrayAt(prev, 'tolerations'), childPath(specPath, 'tolerations')));
  errs.push(
    ...validateOnlyDeletedSchedulingGates(arrayAt(next, 'schedulingGates'), arrayAt(prev, 'schedulingGates'), childPath(specPath, 'schedulingGates')),
  );
  if (semanticEqual(next, prev)) return errs;

  // Put back what may change, then anything still different is a forbidden change.
  const munged: JsonObject = structuredClone(next);
  for (const key of ['containers', 'initContainers']) {
    const oldList = arrayAt(prev, key);
    if (Array.isArray(munged[key])) {
      munged[key] = (munged[key] as unknown[]).map((c, i) => {
        const copy = { ...asObject(c) };
        const oldImage = asObject(oldList[i])?.image;
        if (oldImage === undefined) delete copy.image;
        else copy.image = oldImage;
        return copy;
      });
    }
  }
  for (const key of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations']) {
    if (prev[key] === undefined) delete munged[key];
    else munged[key] = prev[key];
  }
  // A gated pod may gain node selector terms (never lose or change them) before it is scheduled.
  if (arrayAt(prev, 'schedulingGates').length > 0 && !semanticEqual(munged.nodeSelector, prev.nodeSelector)) {
    const next = asObject(munged.nodeSelector) ?? {};
    const removedOrChanged = Object.entries(asObject(prev.nodeSelector) ?? {}).some(([k, v]) => next[k] !== v);
    if (removedOrChanged) {
      errs.push(invalid(childPath(specPath, 'nodeSelector'), next, 'only additions to spec.nodeSelector are allowed (no mutations or deletions)'));
    }
    if (prev.nodeSelector === undefined) delete munged.nodeSelector;
    else munged.nodeSelector = prev.nodeSelector;
  }
  const oldGrace = prev.terminationGracePeriodSeconds;
  if (typeof oldGrace === 'number' && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if (!semanticEqual(munged, prev)) {
    errs.push(forbidden(specPath, `pod updates may not change fields other than ${updatablePodSpecFields}\n${specDiff(prev, munged)}`));
  }
  return errs;
}
