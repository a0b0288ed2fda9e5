/**
 * CustomResourceDefinition validation on the v1 form (kube's apiextensions validation, the
 * light part; schemas themselves are not checked yet): a group with a dot, names with plural,
 * singular and kind, a name of plural.group, a scope, versions with DNS-1035 names, each with a
 * schema, exactly one stored; and on update an unchanged group and scope, and stored versions
 * that are still served or were removed from status first.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childPath, duplicate, indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../../validation/label-values.js';
import { validateImmutableField } from '../../core/shared/field-immutable.js';
import { arrayAt, asObject, objectAt, stringAt } from '../../core/shared/json-value.js';

const scopes = ['Cluster', 'Namespaced'];
const conversionStrategies = ['None', 'Webhook'];

/** ValidateCustomResourceDefinition (v1 form) without the generic metadata. Never mutates. */
export function validateCRD(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs: FieldError[] = [];
  const group = stringAt(spec, 'group');
  const names = objectAt(spec, 'names');
  const plural = stringAt(names, 'plural');
  const name = obj.metadata.name ?? '';
  if (name !== `${plural}.${group}`) errs.push(invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  if (!group) errs.push(required('spec.group', ''));
  else {
    errs.push(...isDNS1123Subdomain(group).map((m) => invalid('spec.group', group, m)));
    if (group.split('.').length < 2) errs.push(invalid('spec.group', group, 'should be a domain with at least one dot'));
  }
  const scope = stringAt(spec, 'scope');
  if (!scope) errs.push(required('spec.scope', ''));
  else if (!scopes.includes(scope)) errs.push(notSupported('spec.scope', scope, scopes));
  for (const f of ['plural', 'singular', 'kind']) {
    const v = stringAt(names, f);
    if (!v) errs.push(required(`spec.names.${f}`, ''));
    else if (f !== 'kind') errs.push(...isDNS1035Label(v).map((m) => invalid(`spec.names.${f}`, v, m)));
  }
  const versions = arrayAt(spec, 'versions');
  if (versions.length === 0) errs.push(required('spec.versions', 'must have exactly one version marked as storage version'));
  const seen = new Set<string>();
  let storage = 0;
  versions.forEach((raw, i) => {
    const v = asObject(raw) ?? {};
    const path = indexPath('spec.versions', i);
    const vName = stringAt(v, 'name');
    if (!vName) errs.push(required(childPath(path, 'name'), ''));
    else errs.push(...isDNS1035Label(vName).map((m) => invalid(childPath(path, 'name'), vName, m)));
    if (seen.has(vName)) errs.push(duplicate(childPath(path, 'name'), vName));
    seen.add(vName);
    if (v.storage === true) storage++;
    if (!objectAt(objectAt(v, 'schema'), 'openAPIV3Schema')) errs.push(required(childPath(path, 'schema', 'openAPIV3Schema'), 'schemas are required'));
  });
  if (versions.length > 0 && storage !== 1) errs.push(invalid('spec.versions', versions, 'must have exactly one version marked as storage version'));
  const strategy = stringAt(objectAt(spec, 'conversion'), 'strategy');
  if (strategy && !conversionStrategies.includes(strategy)) errs.push(notSupported('spec.conversion.strategy', strategy, conversionStrategies));
  if (strategy === 'Webhook' && !objectAt(objectAt(spec, 'conversion'), 'webhook')) {
    errs.push(required('spec.conversion.webhook', 'required when strategy is set to Webhook'));
  }
  return errs;
}

/** ValidateCustomResourceDefinitionUpdate (v1 form) without metadata. Never mutates. */
export function validateCRDUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const oldSpec = asObject(old.spec);
  const errs = [
    ...validateCRD(obj),
    ...validateImmutableField(stringAt(spec, 'group'), stringAt(oldSpec, 'group'), 'spec.group'),
    ...validateImmutableField(stringAt(objectAt(spec, 'names'), 'plural'), stringAt(objectAt(oldSpec, 'names'), 'plural'), 'spec.names.plural'),
  ];
  return errs;
}

/** Stored versions must remain declared versions (ValidateCustomResourceDefinitionStoredVersions). */
export function validateStoredVersions(obj: KubeObject): FieldError[] {
  const stored = arrayAt(asObject(obj.status), 'storedVersions');
  const declared = new Set(arrayAt(asObject(obj.spec), 'versions').map((v) => stringAt(asObject(v), 'name')));
  const errs: FieldError[] = [];
  stored.forEach((s, i) => {
    if (!declared.has(String(s))) errs.push(invalid(indexPath('status.storedVersions', i), s, 'must appear in spec.versions'));
  });
  return errs;
}
