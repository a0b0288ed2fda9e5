/**
 * spec of a CustomResourceDefinition in the internal (stored v1beta1) form, as kube's
 * validateCustomResourceDefinitionSpec checks it: group, scope, schemas required, defaults and
 * extensions requiring structural schemas, each version, top-level versus per-version fields,
 * names, the top-level schema, subresources, columns and selectable fields, and conversion.
 * Never mutates.
 */
import { semanticEqual } from '../../registry/core/shared/semantic-equal.js';
import { childPath, forbidden, indexPath, invalid, notSupported, required, type FieldError } from '../../validation/field-error.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../validation/label-values.js';
import type { JSONSchemaProps } from '../interface.js';
import { validateColumn, validateSubresources } from './columns.js';
import { validateConversion } from './conversion.js';
import { openAPIV3SchemaOf, validateCustomResourceValidation } from './custom-resource-validation.js';
import { validateNames } from './names.js';
import type { ValidationOptions } from './options.js';
import { asJson, asSchema, isSet, schemaHas, str, type Json } from './schema-walk.js';
import { validateSelectableFields } from './selectable-fields.js';
import { validateVersion } from './versions.js';

/** The versions of a spec, each as an object. */
export function versionsOf(spec: Json): Json[] {
  return Array.isArray(spec.versions) ? spec.versions.map((v) => (asSchema(v) ?? {}) as Json) : [];
}

/** Every schema of the spec: the top-level one and each version's. */
export function schemasOf(spec: Json): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  const top = openAPIV3SchemaOf(spec.validation);
  if (top) out.push(top);
  for (const v of versionsOf(spec)) {
    const s = openAPIV3SchemaOf(v.schema);
    if (s) out.push(s);
  }
  return out;
}

/** kube's HasSchemaWith: some schema of the spec has a node where pred holds. */
export function specHasSchemaWith(spec: Json, pred: (s: JSONSchemaProps) => boolean): boolean {
  return schemasOf(spec).some((s) => schemaHas(s, pred));
}

function hasStatus(subresources: unknown): boolean {
  return isSet(asJson(subresources)?.status);
}

function hasKubernetesExtensions(s: JSONSchemaProps): boolean {
  return (
    s['x-kubernetes-embedded-resource'] === true ||
    isSet(s['x-kubernetes-preserve-unknown-fields']) ||
    s['x-kubernetes-int-or-string'] === true ||
    (Array.isArray(s['x-kubernetes-list-map-keys']) && s['x-kubernetes-list-map-keys'].length > 0) ||
    isSet(s['x-kubernetes-list-type']) ||
    (Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length > 0)
  );
}

/** All versions set the field to the same non-empty value (the top-level field should be used). */
function identicalPerVersion(versions: Json[], key: string): boolean {
  if (versions.length === 0) return false;
  const first = versions[0]?.[key];
  const empty = (v: unknown) => !isSet(v) || (key === 'additionalPrinterColumns' && Array.isArray(v) && v.length === 0);
  return versions.every((v) => !empty(v[key]) && semanticEqual(v[key], first));
}

function group(spec: Json): FieldError[] {
  const g = str(spec.group);
  if (!g) return [required('spec.group', '')];
  const msgs = isDNS1123Subdomain(g);
  if (msgs.length > 0) return [invalid('spec.group', g, msgs.join(','))];
  if (g.split('.').length < 2) return [invalid('spec.group', g, 'should be a domain with at least one dot')];
  return [];
}

function scope(spec: Json): FieldError[] {
  const s = str(spec.scope);
  const accepted = ['Cluster', 'Namespaced'];
  if (!s) return [required('spec.scope', '')];
  return accepted.includes(s) ? [] : [notSupported('spec.scope', s, accepted)];
}

/** validateCustomResourceDefinitionSpec on the internal form. */
export function validateSpec(spec: Json, baseOpts: ValidationOptions): FieldError[] {
  const errs = [...group(spec), ...scope(spec)];
  const preserveUnknownFields = spec.preserveUnknownFields;
  const pruning = preserveUnknownFields !== true;
  let opts: ValidationOptions = pruning ? { ...baseOpts, requireStructuralSchema: true } : baseOpts;
  const versions = versionsOf(spec);
  const topSchema = openAPIV3SchemaOf(spec.validation);
  if (opts.requireOpenAPISchema) {
    if (!topSchema) {
      versions.forEach((v, i) => {
        if (!openAPIV3SchemaOf(v.schema)) errs.push(required(childPath(indexPath('spec.versions', i), 'schema', 'openAPIV3Schema'), 'schemas are required'));
      });
    }
  } else if (pruning && !topSchema) {
    versions.forEach((v, i) => {
      if (v.served === true && !openAPIV3SchemaOf(v.schema)) {
        errs.push(required(childPath(indexPath('spec.versions', i), 'schema', 'openAPIV3Schema'), 'because otherwise all fields are pruned'));
      }
    });
  }
  if (opts.allowDefaults && specHasSchemaWith(spec, (s) => isSet(s.default))) {
    opts = { ...opts, requireStructuralSchema: true };
    if (!isSet(preserveUnknownFields) || preserveUnknownFields === true) {
      errs.push(invalid('spec.preserveUnknownFields', true, 'must be false in order to use defaults in the schema'));
    }
  }
  if (specHasSchemaWith(spec, hasKubernetesExtensions)) opts = { ...opts, requireStructuralSchema: true };

  const perVersionSubresources = versions.some((v) => isSet(v.subresources));
  let storageCount = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    if (v.storage === true) storageCount++;
    const name = str(v.name);
    if (seen.has(name)) unique = false;
    seen.add(name);
    const msgs = isDNS1035Label(name);
    if (msgs.length > 0) errs.push(invalid(childPath(indexPath('spec.versions', i), 'name'), name, msgs.join(',')));
    const subresources = perVersionSubresources ? v.subresources : spec.subresources;
    errs.push(...validateVersion(v, { index: i, statusEnabled: hasStatus(subresources), opts, topLevelSchema: topSchema }));
  });

  if (isSet(spec.validation) && versions.some((v) => isSet(v.schema))) errs.push(forbidden('spec.validation', 'top-level and per-version schemas are mutually exclusive'));
  if (isSet(spec.subresources) && perVersionSubresources) errs.push(forbidden('spec.subresources', 'top-level and per-version subresources are mutually exclusive'));
  const topColumns = Array.isArray(spec.additionalPrinterColumns) ? spec.additionalPrinterColumns : [];
  const perVersionColumns = versions.some((v) => Array.isArray(v.additionalPrinterColumns) && v.additionalPrinterColumns.length > 0);
  if (topColumns.length > 0 && perVersionColumns) {
    errs.push(forbidden('spec.additionalPrinterColumns', 'top-level and per-version additionalPrinterColumns are mutually exclusive'));
  }
  if (identicalPerVersion(versions, 'schema')) {
    errs.push(invalid('spec.versions', versions, 'per-version schemas may not all be set to identical values (top-level validation should be used instead)'));
  }
  if (identicalPerVersion(versions, 'subresources')) {
    errs.push(invalid('spec.versions', versions, 'per-version subresources may not all be set to identical values (top-level subresources should be used instead)'));
  }
  if (identicalPerVersion(versions, 'additionalPrinterColumns')) {
    errs.push(invalid('spec.versions', versions, 'per-version additionalPrinterColumns may not all be set to identical values (top-level additionalPrinterColumns should be used instead)'));
  }
  if (!unique) errs.push(invalid('spec.versions', versions, 'must contain unique version names'));
  if (storageCount !== 1) errs.push(invalid('spec.versions', versions, 'must have exactly one version marked as storage version'));
  const version = str(spec.version);
  if (version) {
    const msgs = isDNS1035Label(version);
    if (msgs.length > 0) errs.push(invalid('spec.version', version, msgs.join(',')));
    if (versions.length >= 1 && str(versions[0]?.name) !== version) errs.push(invalid('spec.version', version, 'must match the first version in spec.versions'));
  }

  const names = (asSchema(spec.names) ?? {}) as Json;
  for (const f of ['plural', 'singular', 'kind', 'listKind']) if (!str(names[f])) errs.push(required(`spec.names.${f}`, ''));
  errs.push(...validateNames(names, 'spec.names'));
  const anyStatus = hasStatus(spec.subresources) || versions.some((v) => hasStatus(v.subresources));
  errs.push(...validateCustomResourceValidation({ validation: spec.validation, statusEnabled: anyStatus, path: 'spec.validation', opts, oldSchema: opts.oldTopLevelSchema ?? opts.oldSchemas?.get(str(spec.version)) }));
  errs.push(...validateSubresources(spec.subresources, 'spec.subresources'));
  topColumns.forEach((c, i) => errs.push(...validateColumn((asSchema(c) ?? {}) as Json, indexPath('spec.additionalPrinterColumns', i))));
  const selectable = Array.isArray(spec.selectableFields) ? spec.selectableFields : [];
  if (selectable.length > 0) {
    // Capstan's stored form hoists selectable fields shared by every version even when the
    // schemas differ; they are then checked against each version's schema.
    const schemas = topSchema ? [topSchema] : versions.map((v) => openAPIV3SchemaOf(v.schema)).filter((x): x is JSONSchemaProps => !!x);
    if (schemas.length === 0) errs.push(invalid('spec.selectableFields', '', 'selectableFields may only be set when validations.schema is included'));
    const seenMessages = new Set<string>();
    for (const schema of schemas) {
      for (const e of validateSelectableFields(selectable, schema, 'spec.selectableFields')) {
        const key = `${e.field}|${e.detail}`;
        if (!seenMessages.has(key)) errs.push(e);
        seenMessages.add(key);
      }
    }
  }
  const conversion = asSchema(spec.conversion) as Json | undefined;
  if (conversion && str(conversion.strategy) !== 'None' && (!isSet(preserveUnknownFields) || preserveUnknownFields === true)) {
    errs.push(invalid('spec.conversion.strategy', str(conversion.strategy), 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(conversion, 'spec.conversion', opts));
  return errs;
}
