/**
 * Typed reads of an apiextensions.k8s.io/v1 CustomResourceDefinition (as served, not as stored):
 * its names, scope, versions with their schema, subresources, printer columns and selectable
 * fields, and its conditions. Tolerant of missing fields; never mutates the CRD.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { JSONSchemaProps } from '../interface.js';

/** spec.names (or status.acceptedNames). */
export interface CrdNames {
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
}

/** One additionalPrinterColumns entry. */
export interface CrdColumn {
  readonly name: string;
  readonly type: string;
  readonly format?: string;
  readonly description?: string;
  readonly priority?: number;
  readonly jsonPath: string;
}

/** subresources.scale. */
export interface CrdScale {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

/** One entry of spec.versions. */
export interface CrdVersion {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly deprecated: boolean;
  readonly deprecationWarning?: string;
  readonly schema?: JSONSchemaProps;
  readonly status: boolean;
  readonly scale?: CrdScale;
  readonly columns: readonly CrdColumn[];
  readonly selectableFields: readonly string[];
}

/** What serving needs of a CRD. */
export interface CrdFacts {
  readonly name: string;
  readonly uid: string;
  readonly generation: number;
  readonly group: string;
  readonly names: CrdNames;
  readonly namespaced: boolean;
  readonly versions: readonly CrdVersion[];
  readonly storedVersions: readonly string[];
  readonly conditions: ReadonlyMap<string, string>;
  readonly terminating: boolean;
}

type Json = Record<string, unknown>;

function obj(v: unknown): Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function names(v: unknown): CrdNames {
  const n = obj(v);
  const kind = str(n.kind);
  return {
    plural: str(n.plural),
    singular: str(n.singular) || kind.toLowerCase(),
    kind,
    listKind: str(n.listKind) || `${kind}List`,
    shortNames: strings(n.shortNames),
    categories: strings(n.categories),
  };
}

function version(v: unknown): CrdVersion {
  const o = obj(v);
  const subs = obj(o.subresources);
  const scale = subs.scale === undefined || subs.scale === null ? undefined : obj(subs.scale);
  const schema = obj(o.schema).openAPIV3Schema;
  return {
    name: str(o.name),
    served: o.served === true,
    storage: o.storage === true,
    deprecated: o.deprecated === true,
    ...(typeof o.deprecationWarning === 'string' ? { deprecationWarning: o.deprecationWarning } : {}),
    ...(typeof schema === 'object' && schema !== null ? { schema: schema as JSONSchemaProps } : {}),
    status: subs.status !== undefined && subs.status !== null,
    ...(scale
      ? {
          scale: {
            specReplicasPath: str(scale.specReplicasPath),
            statusReplicasPath: str(scale.statusReplicasPath),
            ...(typeof scale.labelSelectorPath === 'string' ? { labelSelectorPath: scale.labelSelectorPath } : {}),
          },
        }
      : {}),
    columns: (Array.isArray(o.additionalPrinterColumns) ? o.additionalPrinterColumns : []).map((c) => {
      const col = obj(c);
      return {
        name: str(col.name),
        type: str(col.type),
        ...(typeof col.format === 'string' ? { format: col.format } : {}),
        ...(typeof col.description === 'string' ? { description: col.description } : {}),
        ...(typeof col.priority === 'number' ? { priority: col.priority } : {}),
        jsonPath: str(col.jsonPath),
      };
    }),
    selectableFields: (Array.isArray(o.selectableFields) ? o.selectableFields : []).map((f) => str(obj(f).jsonPath)).filter((p) => p !== ''),
  };
}

/** Reads crd (apiextensions.k8s.io/v1). */
export function crdFacts(crd: KubeObject): CrdFacts {
  const spec = obj(crd.spec);
  const status = obj(crd.status);
  const conditions = new Map<string, string>();
  for (const c of Array.isArray(status.conditions) ? status.conditions : []) conditions.set(str(obj(c).type), str(obj(c).status));
  return {
    name: crd.metadata.name ?? '',
    uid: crd.metadata.uid ?? '',
    generation: crd.metadata.generation ?? 0,
    group: str(spec.group),
    // kube serves the names the naming controller accepted; before it has, the spec's.
    names: str(obj(status.acceptedNames).kind) ? { ...names(status.acceptedNames), plural: names(spec.names).plural } : names(spec.names),
    namespaced: str(spec.scope) !== 'Cluster',
    versions: (Array.isArray(spec.versions) ? spec.versions : []).map(version),
    storedVersions: strings(status.storedVersions),
    conditions,
    terminating: conditions.get('Terminating') === 'True' || Boolean(crd.metadata.deletionTimestamp),
  };
}

/**
 * Whether kube's CRD handler serves the CRD's resources: once its names are accepted or it is
 * established (the handler accepts either, as a names update can briefly unset Established).
 */
export function isServable(f: CrdFacts): boolean {
  return f.conditions.get('NamesAccepted') === 'True' || f.conditions.get('Established') === 'True';
}

/** The storage version's name, or undefined when the CRD has none (invalid). */
export function storageVersionOf(f: CrdFacts): string | undefined {
  return f.versions.find((v) => v.storage)?.name;
}
