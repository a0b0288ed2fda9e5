/**
 * Namespace rules: every new namespace is Active, carries the `kubernetes` finalizer in
 * spec.finalizers and the kubernetes.io/metadata.name label; spec.finalizers change only through
 * namespaces/finalize and status only through namespaces/status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { indexPath, invalid, type FieldError } from '../../../validation/field-error.js';
import { isQualifiedName } from '../../../validation/label-values.js';
import type { StatusStrategy, Strategy } from '../../generic/strategy.js';

/** The finalizer the namespace controller removes once the namespace is empty. */
export const kubernetesFinalizer = 'kubernetes';
/** The label every namespace carries with its own name. */
export const metadataNameLabel = 'kubernetes.io/metadata.name';

interface NamespaceSpec {
  finalizers?: string[];
}

/** spec.finalizers of a namespace object. */
export function specFinalizers(ns: KubeObject): string[] {
  const spec = ns.spec as NamespaceSpec | undefined;
  return Array.isArray(spec?.finalizers) ? spec.finalizers : [];
}

function validateSpecFinalizers(ns: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  specFinalizers(ns).forEach((f, i) => {
    const path = indexPath('spec.finalizers', i);
    if (typeof f !== 'string') {
      errs.push(invalid(path, f, 'must be a string'));
      return;
    }
    for (const msg of isQualifiedName(f)) errs.push(invalid(path, f, msg));
    if (!f.includes('/') && f !== kubernetesFinalizer) {
      errs.push(invalid(path, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errs;
}

/** kube's SetDefaults_Namespace and SetDefaults_NamespaceStatus: the name label, and phase Active when empty. */
export function defaultNamespace(obj: KubeObject): void {
  if (obj.metadata.name) obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [metadataNameLabel]: obj.metadata.name };
  const status = (typeof obj.status === 'object' && obj.status !== null ? obj.status : (obj.status = {})) as { phase?: string };
  if (!status.phase) status.phase = 'Active';
}

/** The namespaces strategy. */
export const namespaceStrategy = {
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  hasStatus: true,
  nameValidation: 'label',
  returnDeletedObject: true,
  selectableFields: {
    extra: ['status.phase'],
    style: 'core',
    values: (obj) => ({ 'status.phase': String((obj.status as { phase?: string } | undefined)?.phase ?? '') }),
  },
  holdsDeletion(obj) {
    return specFinalizers(obj).length > 0;
  },
  prepareForCreate(_ctx, obj) {
    obj.status = { phase: 'Active' };
    const spec = (typeof obj.spec === 'object' && obj.spec !== null ? obj.spec : {}) as NamespaceSpec;
    const finalizers = Array.isArray(spec.finalizers) ? spec.finalizers : [];
    if (!finalizers.includes(kubernetesFinalizer)) finalizers.push(kubernetesFinalizer);
    obj.spec = { ...spec, finalizers };
  },
  validate(_ctx, obj) {
    return validateSpecFinalizers(obj);
  },
  canonicalize(obj) {
    obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [metadataNameLabel]: obj.metadata.name ?? '' };
  },
  prepareForUpdate(_ctx, obj, old) {
    const spec = (typeof obj.spec === 'object' && obj.spec !== null ? obj.spec : {}) as NamespaceSpec;
    obj.spec = { ...spec, finalizers: [...specFinalizers(old)] };
    obj.status = structuredClone(old.status);
  },
  validateUpdate(_ctx, obj) {
    return validateSpecFinalizers(obj);
  },
} satisfies Strategy;

/** namespaces/finalize: only spec.finalizers may change. */
export const namespaceFinalizeStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    const finalizers = specFinalizers(obj);
    const next = structuredClone(old);
    for (const key of Object.keys(obj)) if (key !== 'metadata') delete obj[key];
    for (const [key, value] of Object.entries(next)) if (key !== 'metadata') obj[key] = value;
    obj.spec = { ...((next.spec as object | undefined) ?? {}), finalizers };
  },
  validateUpdate(_ctx, obj) {
    return validateSpecFinalizers(obj);
  },
};
