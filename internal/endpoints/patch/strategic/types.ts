/**
 * The shapes strategic merge patch works with: JSON values as kube's decoder produces them, the patch
 * metadata of one field, and the lookup that walks a type one key at a time (kube's LookupPatchMeta).
 */

/** A decoded JSON object. Integers beyond 2^53 may be bigint when the document was parsed losslessly. */
export type JsonMap = Record<string, unknown>;

/** The patch metadata of one field: its `patchStrategy` split on "," and its `patchMergeKey`. */
export interface PatchMeta {
  /** e.g. [] (none), ['merge'], ['replace'], ['retainKeys'], ['merge', 'retainKeys']. */
  readonly strategies: readonly string[];
  /** The key list elements are matched by; '' when the field has none. */
  readonly mergeKey: string;
}

/** What a lookup finds: the schema of the field's value (of its elements, for lists) and its metadata. */
export interface PatchLookup {
  readonly schema: PatchSchema;
  readonly meta: PatchMeta;
}

/**
 * Patch metadata for one level of a document, as kube's PatchMetaFromStruct gives it for a Go type.
 * Lookups throw a StrategicPatchError when the key cannot be resolved (an unknown field of a struct,
 * a list lookup on a field that is not a list, ...); the algorithms decide whether that matters.
 * Implementations are immutable and may be shared between requests.
 */
export interface PatchSchema {
  /** The field `key` of an object at this level, for merging or diffing two objects there. */
  lookupForStruct(key: string): PatchLookup;
  /** The field `key` of an object at this level, for merging or diffing two lists there. */
  lookupForSlice(key: string): PatchLookup;
  /** The Go kind of this level's type ("struct", "map", "string", ...), as kube names it in errors. */
  readonly name: string;
}

/** The group, version and kind whose patch metadata is wanted (group '' for the core group). */
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/**
 * Patch metadata of one definition, in the compact form api/gen/patch-meta.ts stores: the Go struct
 * name and, by JSON name, every field the Go struct decodes, as a type expression or as
 * [type expression, patch strategy, merge key].
 *
 * Type expressions: `s` string, `b` bool, `i32`/`i64` integers, `f32`/`f64` numbers, `byte` base64
 * []byte, `any` free-form JSON, `@<definition>` a struct, `*@<definition>` a pointer to one,
 * `[]<expr>` a slice, `{}<expr>` a map with string keys.
 */
export interface PatchMetaDefinition {
  /** The Go struct name, as reflect's Name() gives it. */
  readonly n: string;
  /** The struct fields by JSON name. */
  readonly f: Readonly<Record<string, string | PatchMetaField>>;
}

/** A field with patch metadata: [type expression, patch strategy, merge key]. */
export type PatchMetaField = readonly [string, string, string?];
