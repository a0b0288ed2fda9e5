/**
 * The definitions apiextensions' builder publishes for a CRD version: the kind (its schema with
 * kube's metadata reference, apiVersion and kind, embedded resources' type meta, and
 * x-kubernetes-group-version-kind) and its list kind. v2 refers to "#/definitions/", v3 to
 * "#/components/schemas/".
 */
import type { JSONSchemaProps } from '../interface.js';
import { definitionName } from './names.js';
import { publishedSchema, type PublishedSchema } from './published-schema.js';

const metaV1 = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** The ref prefix of definitions in OpenAPI v2 or v3. */
export function refPrefix(v2: boolean): string {
  return v2 ? '#/definitions/' : '#/components/schemas/';
}

// metav1.TypeMeta's and PartialObjectMetadata(List)'s field documentation, as kube's generated definitions carry it.
const apiVersionDoc = 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const kindDoc = 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const objectMetaDoc = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const listMetaDoc = 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
// The builder's own wording for an embedded resource's apiVersion and kind.
const embeddedApiVersionDoc = 'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const embeddedKindDoc = 'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/** Which CRD version a definition is built for. */
export interface KindNames {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly listKind: string;
  readonly plural: string;
}

function objectMetaRef(v2: boolean): PublishedSchema {
  return { $ref: `${refPrefix(v2)}${metaV1}.ObjectMeta`, description: objectMetaDoc };
}

function setTypeMeta(s: PublishedSchema): void {
  const props = (s.properties ??= {}) as Record<string, unknown>;
  props.apiVersion = { type: 'string', description: apiVersionDoc };
  props.kind = { type: 'string', description: kindDoc };
}

/** kube's addEmbeddedProperties: embedded resources get apiVersion, kind and metadata, and require kind and apiVersion. In place. */
function addEmbeddedProperties(s: PublishedSchema | undefined, v2: boolean): void {
  if (!s || typeof s !== 'object') return;
  const props = s.properties as Record<string, PublishedSchema> | undefined;
  if (props) for (const p of Object.values(props)) addEmbeddedProperties(p, v2);
  if (s.items && typeof s.items === 'object') addEmbeddedProperties(s.items as PublishedSchema, v2);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') addEmbeddedProperties(s.additionalProperties as PublishedSchema, v2);
  // kubectl's v2 validation would refuse unknown fields next to these properties.
  if (v2 && s['x-kubernetes-preserve-unknown-fields'] === true) return;
  if (s['x-kubernetes-embedded-resource'] !== true) return;
  const own = (s.properties ??= {}) as Record<string, unknown>;
  own.apiVersion = { type: 'string', description: embeddedApiVersionDoc };
  own.kind = { type: 'string', description: embeddedKindDoc };
  own.metadata = objectMetaRef(v2);
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  if (!required.includes('kind')) required.push('kind');
  if (!required.includes('apiVersion')) required.push('apiVersion');
  s.required = required;
}

/**
 * The kind's definition. schema undefined (none, or not structural) gives the bare object kube
 * publishes then; so does v2 when the root preserves unknown fields (spec.preserveUnknownFields too).
 */
export function kindDefinition(names: KindNames, schema: JSONSchemaProps | undefined, v2: boolean, preserveUnknownFields: boolean): PublishedSchema {
  let out: PublishedSchema;
  if (!schema || (v2 && (schema['x-kubernetes-preserve-unknown-fields'] === true || preserveUnknownFields))) {
    out = { type: 'object' };
  } else {
    out = publishedSchema(schema, v2);
    ((out.properties ??= {}) as Record<string, unknown>).metadata = objectMetaRef(v2);
    setTypeMeta(out);
    addEmbeddedProperties(out, v2);
  }
  out['x-kubernetes-group-version-kind'] = [{ group: names.group, kind: names.kind, version: names.version }];
  return out;
}

/** The list kind's definition. */
export function listDefinition(names: KindNames, v2: boolean): PublishedSchema {
  const out: PublishedSchema = {
    description: `${names.listKind} is a list of ${names.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      items: {
        description: `List of ${names.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        type: 'array',
        items: { $ref: `${refPrefix(v2)}${definitionName(names.group, names.version, names.kind)}` },
      },
      metadata: { $ref: `${refPrefix(v2)}${metaV1}.ListMeta`, description: listMetaDoc },
    },
    'x-kubernetes-group-version-kind': [{ group: names.group, kind: names.listKind, version: names.version }],
  };
  setTypeMeta(out);
  return out;
}
