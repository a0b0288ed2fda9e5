/**
 * The strategy of one custom resource version (kube's pkg/registry/customresource strategy): scope
 * from spec.scope, generation 1 on create and bumped on any change outside metadata (status too,
 * unless the status subresource owns it), status kept by main writes and everything but status
 * kept by status writes, and validation: kind and apiVersion, the version's schema (with CEL rules
 * and ratcheting), and the scale fields.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { SelectableFields, StatusStrategy, Strategy } from '../../registry/generic/strategy.js';
import { stableStringify } from '../../registry/generic/object-meta.js';
import { invalid, type FieldError } from '../../validation/field-error.js';
import type { VersionSchema } from '../interface.js';
import type { CrdScale } from './crd.js';
import { compileJsonPath } from './jsonpath.js';
import { validateScaleFields } from './scale.js';
import { setOwnKey } from '../../collections/own-key.js';

/** What one version's strategy is built from. */
export interface CustomResourceStrategyOptions {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly schema: VersionSchema;
  readonly hasStatus: boolean;
  readonly scale?: CrdScale;
  /** selectableFields' jsonPaths (".spec.color"). */
  readonly selectableFields: readonly string[];
}

/** kube's ValidateTypeMeta of a custom resource. */
function validateTypeMeta(obj: KubeObject, o: CustomResourceStrategyOptions): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = `${o.group}/${o.version}`;
  if (obj.kind !== o.kind) errs.push(invalid('kind', obj.kind ?? '', `must be ${o.kind}`));
  if (obj.apiVersion !== apiVersion) errs.push(invalid('apiVersion', obj.apiVersion ?? '', `must be ${apiVersion}`));
  return errs;
}

/** Everything but metadata, for kube's generation rule (copyNonMetadata). */
function nonMetadata(obj: KubeObject): string {
  const { metadata: _m, ...rest } = obj;
  return stableStringify(rest);
}

function validator(o: CustomResourceStrategyOptions): (obj: KubeObject, old: KubeObject | undefined) => FieldError[] {
  return (obj, old) => {
    const typeErrs = validateTypeMeta(obj, o);
    if (typeErrs.length > 0) return typeErrs;
    // CRDValidationRatcheting is on by default in 1.33.
    const errs = o.schema.validate(obj, old, { ratcheting: true });
    if (o.scale) errs.push(...validateScaleFields(obj, o.scale));
    return errs;
  };
}

/** The SelectableFields of a version: its selectableFields as field labels, read with their JSONPaths. */
export function customResourceSelectableFields(jsonPaths: readonly string[]): SelectableFields {
  if (jsonPaths.length === 0) return { extra: [], style: 'meta' };
  const fields = jsonPaths.map((p) => ({ label: p.replace(/^\./, ''), path: compileJsonPath(p) }));
  return {
    extra: fields.map((f) => f.label),
    style: 'meta',
    values(obj) {
      const out: Record<string, string> = {};
      for (const f of fields) {
        const v = f.path.find(obj)[0];
        out[f.label] = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
      }
      return out;
    },
  };
}

/** The Strategy of one custom resource version. */
export function customResourceStrategy(o: CustomResourceStrategyOptions): Strategy {
  const validate = validator(o);
  return {
    namespaced: o.namespaced,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    tracksGeneration: true,
    hasStatus: o.hasStatus,
    nameValidation: 'subdomain',
    selectableFields: customResourceSelectableFields(o.selectableFields),
    prepareForCreate(_ctx, obj) {
      if (o.hasStatus) delete obj.status;
    },
    validate(_ctx, obj) {
      return validate(obj, undefined);
    },
    prepareForUpdate(_ctx, obj, old) {
      if (o.hasStatus) {
        if (old.status !== undefined) obj.status = structuredClone(old.status);
        else delete obj.status;
      }
      // kube bumps generation on any change outside metadata; the generic step only looks
      // outside metadata and status, so a status change (no status subresource) is counted here.
      if (!o.hasStatus && nonMetadata(obj) !== nonMetadata(old) && stableStringify(obj.status) !== stableStringify(old.status)) {
        const { status: _s, metadata: _m, ...a } = obj;
        const { status: _t, metadata: _n, ...b } = old;
        if (stableStringify(a) === stableStringify(b)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
      }
    },
    validateUpdate(_ctx, obj, old) {
      return validate(obj, old);
    },
  };
}

/** The status strategy of one version: a status write changes status only, keeping the rest (managedFields aside) as it was. */
export function customResourceStatusStrategy(o: CustomResourceStrategyOptions): StatusStrategy {
  const validate = validator(o);
  return {
    prepareForUpdate(_ctx, obj, old) {
      const status = obj.status;
      const managedFields = obj.metadata.managedFields;
      for (const key of Object.keys(obj)) delete obj[key];
      for (const [k, v] of Object.entries(structuredClone(old))) setOwnKey(obj, k, v);
      if (managedFields !== undefined) obj.metadata.managedFields = managedFields;
      else delete obj.metadata.managedFields;
      if (status !== undefined) obj.status = status;
      else delete obj.status;
    },
    validateUpdate(_ctx, obj, old) {
      return validate(obj, old);
    },
  };
}
