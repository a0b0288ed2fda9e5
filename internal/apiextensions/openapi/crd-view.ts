/**
 * The parts of an apiextensions.k8s.io/v1 CustomResourceDefinition the OpenAPI publisher reads
 * (names, scope, versions with their schema and subresources, conditions), read defensively from
 * the object as stored JSON, as kube's apihelpers do.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { JSONSchemaProps } from '../interface.js';

/** One CRD version as the publisher needs it. */
export interface CrdVersionView {
  readonly name: string;
  readonly served: boolean;
  readonly schema: JSONSchemaProps | undefined;
  readonly status: boolean;
  readonly scale: boolean;
}

/** What the OpenAPI builder reads from a v1 CRD. */
export interface CrdView {
  readonly name: string;
  readonly uid: string;
  readonly generation: number;
  readonly group: string;
  readonly kind: string;
  readonly listKind: string;
  readonly plural: string;
  readonly namespaced: boolean;
  readonly preserveUnknownFields: boolean;
  readonly versions: readonly CrdVersionView[];
  /** Established is True (kube publishes only established CRDs). */
  readonly established: boolean;
  /** NonStructuralSchema is True: kube then publishes no schema beyond the kind's bare object. */
  readonly nonStructural: boolean;
}

type Json = Record<string, unknown>;

function obj(v: unknown): Json | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function conditionTrue(status: Json | undefined, type: string): boolean {
  const conditions = Array.isArray(status?.conditions) ? status.conditions : [];
  return conditions.some((c) => obj(c)?.type === type && obj(c)?.status === 'True');
}

/** Reads a v1 CRD (as served, not the stored v1beta1 form). Never mutates crd; the views share its schema objects. */
export function viewCrd(crd: KubeObject): CrdView {
  const spec = obj(crd.spec) ?? {};
  const names = obj(spec.names) ?? {};
  const status = obj(crd.status);
  const kind = str(names.kind);
  const versions = (Array.isArray(spec.versions) ? spec.versions : []).map((raw): CrdVersionView => {
    const v = obj(raw) ?? {};
    const subresources = obj(v.subresources);
    return {
      name: str(v.name),
      served: v.served === true,
      schema: obj(obj(v.schema)?.openAPIV3Schema) as JSONSchemaProps | undefined,
      status: obj(subresources?.status) !== undefined,
      scale: obj(subresources?.scale) !== undefined,
    };
  });
  return {
    name: crd.metadata.name ?? '',
    uid: crd.metadata.uid ?? '',
    generation: typeof crd.metadata.generation === 'number' ? crd.metadata.generation : 0,
    group: str(spec.group),
    kind,
    listKind: str(names.listKind) || `${kind}List`,
    plural: str(names.plural),
    namespaced: spec.scope !== 'Cluster',
    preserveUnknownFields: spec.preserveUnknownFields === true,
    versions,
    established: conditionTrue(status, 'Established'),
    nonStructural: conditionTrue(status, 'NonStructuralSchema'),
  };
}
