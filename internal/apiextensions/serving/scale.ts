/**
 * The scale subresource of a custom resource: where specReplicasPath, statusReplicasPath and
 * labelSelectorPath point, read and written as kube's CR ScaleREST does, and kube's validation of
 * those fields on every write of the resource (ValidateScaleSpec / ValidateScaleStatus).
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { ScaleMapping } from '../../registry/generic/scale-store.js';
import { invalid, type FieldError } from '../../validation/field-error.js';
import type { CrdScale } from './crd.js';

const maxInt32 = 2147483647;

/** ".spec.replicas" as its segments. */
function segments(path: string): string[] {
  return path.replace(/^\./, '').split('.').filter((s) => s !== '');
}

/** The value at segs, and whether it was found (unstructured.NestedFieldNoCopy). */
function nested(obj: KubeObject, segs: readonly string[]): { value: unknown; found: boolean } {
  let cur: unknown = obj;
  for (const s of segs) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur) || !Object.hasOwn(cur, s)) return { value: undefined, found: false };
    cur = (cur as Record<string, unknown>)[s];
  }
  return { value: cur, found: true };
}

/** Go's %T of a decoded JSON value. */
function goType(v: unknown): string {
  if (v === null) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

function accessorError(path: string, v: unknown, expected: string): string {
  return `${path} accessor error: ${typeof v === 'object' ? JSON.stringify(v) : String(v)} is of the type ${goType(v)}, expected ${expected}`;
}

/** The ScaleMapping of a CRD's scale subresource. */
export function customResourceScaleMapping(scale: CrdScale): ScaleMapping & { selectorString(obj: KubeObject): string } {
  const spec = segments(scale.specReplicasPath);
  const status = segments(scale.statusReplicasPath);
  const selector = scale.labelSelectorPath ? segments(scale.labelSelectorPath) : undefined;
  const intAt = (obj: KubeObject, segs: readonly string[]): number => {
    const { value } = nested(obj, segs);
    return typeof value === 'number' && Number.isInteger(value) ? value : 0;
  };
  return {
    specReplicas: (o) => intAt(o, spec),
    setSpecReplicas: (o, n) => {
      let cur = o as Record<string, unknown>;
      for (const s of spec.slice(0, -1)) {
        const next = cur[s];
        cur = (typeof next === 'object' && next !== null && !Array.isArray(next) ? next : (cur[s] = {})) as Record<string, unknown>;
      }
      cur[spec[spec.length - 1] as string] = n;
    },
    statusReplicas: (o) => intAt(o, status),
    selector: () => undefined,
    selectorString: (o) => {
      if (!selector) return '';
      const { value } = nested(o, selector);
      return typeof value === 'string' ? value : '';
    },
  };
}

/** kube's ValidateScaleSpec and ValidateScaleStatus of obj. */
export function validateScaleFields(obj: KubeObject, scale: CrdScale): FieldError[] {
  const errs: FieldError[] = [];
  const checkReplicas = (path: string): void => {
    const { value, found } = nested(obj, segments(path));
    if (!found) return;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      errs.push(invalid(path, 0, accessorError(path, value, 'int64')));
    } else if (value < 0) {
      errs.push(invalid(path, value, 'should be a non-negative integer'));
    } else if (value > maxInt32) {
      errs.push(invalid(path, value, `should be less than or equal to ${maxInt32}`));
    }
  };
  checkReplicas(scale.specReplicasPath);
  checkReplicas(scale.statusReplicasPath);
  if (scale.labelSelectorPath) {
    const { value, found } = nested(obj, segments(scale.labelSelectorPath));
    if (found && typeof value !== 'string') errs.push(invalid(scale.labelSelectorPath, '', accessorError(scale.labelSelectorPath, value, 'string')));
  }
  return errs;
}
