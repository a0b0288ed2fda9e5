/**
 * The shapes shared by the schema checks: the public result types, and the resolved schema graph
 * (one node per Go type) that the decode and validation walks follow.
 */

/** A group/version/kind; the core group is the empty string. */
export interface GVK {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** What kube's typed JSON decoding would make of an object: see checkDecode. */
export interface DecodeCheckResult {
  /** The object with unknown fields removed (a new object; the input is not mutated). */
  readonly object: Record<string, unknown>;
  /** JSON paths of the fields that were removed, in document order. */
  readonly unknownFields: string[];
  /** Go's decode error for the first value of the wrong type/format (the caller wraps it as `<Kind> in version "<v>" cannot be handled as a <Kind>: <this>`), or undefined. */
  readonly decodeError?: string;
}

/** Go kinds that decode with the standard encoding/json rules. */
export type ScalarKind = 'string' | 'bool' | 'int32' | 'int64' | 'float64' | 'bytes';

/** Go types with their own UnmarshalJSON, emulated one by one. */
export type CustomKind = 'quantity' | 'time' | 'microtime' | 'intOrString' | 'schemaOrBool' | 'schemaOrArray' | 'schemaOrStringArray';

/** A Go struct: its fields by JSON name. `fields` is filled right after the node is created (types may recurse). */
export interface StructNode {
  readonly kind: 'struct';
  /** reflect's name for the type, e.g. `v1.DeploymentSpec`. */
  readonly goType: string;
  /** The bare struct name Go's decode errors use, e.g. `DeploymentSpec`. */
  readonly structName: string;
  /** The OpenAPI definition name without `io.k8s.`. */
  readonly definition: string;
  readonly fields: Map<string, FieldNode>;
  readonly required: readonly string[];
}

/** A Go slice (or []byte arrays are `bytes` scalars, not this). */
export interface ArrayNode {
  readonly kind: 'array';
  readonly goType: string;
  readonly items: SchemaNode;
  readonly listType?: string;
  readonly listMapKeys?: readonly string[];
}

/** A Go map with string keys. */
export interface MapNode {
  readonly kind: 'map';
  readonly goType: string;
  readonly values: SchemaNode;
  readonly mapType?: string;
}

/** A Go scalar decoded by encoding/json itself. */
export interface ScalarNode {
  readonly kind: ScalarKind;
  readonly goType: string;
}

/** A Go type with a custom decoder. */
export interface CustomNode {
  readonly kind: CustomKind;
  readonly goType: string;
}

/** Free-form JSON kept as is (RawExtension, JSON, FieldsV1, preserve-unknown-fields). */
export interface AnyNode {
  readonly kind: 'any';
  readonly goType: string;
}

/** One resolved schema node. */
export type SchemaNode = StructNode | ArrayNode | MapNode | ScalarNode | CustomNode | AnyNode;

/** A struct field: its node plus where it came from (for policies keyed by `<definition>.<field>`). */
export interface FieldNode {
  readonly name: string;
  readonly node: SchemaNode;
}
