/**
 * The shapes the field manager's callers and implementations share: the kind being written, how
 * its structured-merge-diff type is found, the managedFields entries it writes, and the options a
 * caller plugs in per endpoint.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { Schema, TypeRef } from './schema.js';
import type { ValueMap } from './value.js';

/** A group/version/kind; the core group is the empty string. */
export interface GVK {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** The type of a kind: a schema and the root reference within it. */
export interface ResolvedType {
  readonly schema: Schema;
  readonly typeRef: TypeRef;
}

/** Resolves kinds to structured-merge-diff types. Implementations are immutable and safe to share. */
export interface TypeResolver {
  /** The type of a kind; undefined when it has no schema (its objects are then deduced: maps granular, the rest atomic). */
  typeOf(gvk: GVK): ResolvedType | undefined;
  /** The JSON a Go zero value of the kind serializes (with apiVersion and kind), as kube's `New()` object holds it. A new object each call. */
  zeroObject(gvk: GVK): ValueMap;
  /**
   * The object as kube's typed decoding shows it to the field manager: every struct present
   * carries the fields Go serializes even when zero (non-pointer structs as `{}`, required
   * fields as their zero value). A new object; obj is not mutated.
   */
  normalize(gvk: GVK, obj: ValueMap): ValueMap;
}

/** One metadata.managedFields entry as Capstan writes it (keys in Go's order). */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: object;
  subresource?: string;
}

/** Optional behaviour a caller plugs in per endpoint. */
export interface FieldManagerOptions {
  /**
   * Fields no manager owns at this endpoint, as field-name paths: kube's strategy ResetFields
   * (e.g. [["status"]] on a main resource, [["spec"], ["metadata"]] on its status subresource).
   */
  readonly resetFields?: ReadonlyArray<readonly string[]>;
  /** Converts an object to another served version of its kind (undefined: not served). Default: the same JSON under the other apiVersion. */
  readonly convert?: (obj: KubeObject, apiVersion: string) => KubeObject | undefined;
  /** Defaults the object an apply produced, as kube does inside its field manager. */
  readonly default?: (obj: KubeObject) => KubeObject;
}

/** One conflicting field of an apply: the manager as kube names it and the field path. */
export interface ApplyConflict {
  readonly manager: string;
  readonly field: string;
}
