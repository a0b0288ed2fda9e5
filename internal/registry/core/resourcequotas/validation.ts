/**
 * ResourceQuota validation (kube's ValidateResourceQuota): hard limits named by standard quota
 * resources (or qualified names) with valid quantities, known scopes, and a well-formed status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, keyPath, type FieldError } from '../../../validation/field-error.js';
import { isQualifiedName } from '../../../validation/label-values.js';
import { arrayAt, asObject, objectAt } from '../shared/json-value.js';
import { validateResourceQuantityValue } from '../../shared/quantity-validation.js';

const standardQuotaResources = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas',
  'secrets', 'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers',
]);
const scopes = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity', 'VolumeAttributesClass'];

function isStandardQuotaResource(name: string): boolean {
  return standardQuotaResources.has(name) || /^(requests\.|limits\.)?hugepages-/.test(name);
}

/** ValidateResourceQuotaResourceName. */
function validateQuotaResourceName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(path, name, m));
  if (!name.includes('/') && !isStandardQuotaResource(name)) errs.push(invalid(path, name, 'must be a standard resource for quota'));
  return errs;
}

function validateResourceMap(map: unknown, path: string, checkNames: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const m = asObject(map) ?? {};
  for (const name of Object.keys(m).sort()) {
    const p = keyPath(path, name);
    if (checkNames) errs.push(...validateQuotaResourceName(name, p));
    errs.push(...validateResourceQuantityValue(name, m[name], p));
  }
  return errs;
}

/** ValidateResourceQuotaStatus. */
export function validateResourceQuotaStatus(obj: KubeObject): FieldError[] {
  const status = asObject(obj.status);
  return [...validateResourceMap(status?.hard, 'status.hard', true), ...validateResourceMap(status?.used, 'status.used', true)];
}

/** ValidateResourceQuota without metadata. Never mutates. */
export function validateResourceQuota(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs = validateResourceMap(spec?.hard, 'spec.hard', true);
  const specScopes = arrayAt(spec, 'scopes');
  for (const s of specScopes) {
    if (typeof s !== 'string' || !scopes.includes(s)) {
      errs.push(invalid('spec.scopes', specScopes, 'unsupported scope'));
      break;
    }
  }
  arrayAt(objectAt(spec, 'scopeSelector'), 'matchExpressions').forEach((raw, i) => {
    const scopeName = asObject(raw)?.scopeName;
    if (typeof scopeName !== 'string' || !scopes.includes(scopeName)) {
      errs.push(invalid(`spec.scopeSelector.matchExpressions[${i}].scopeName`, scopeName ?? '', 'unsupported scope'));
    }
  });
  errs.push(...validateResourceQuotaStatus(obj));
  return errs;
}
