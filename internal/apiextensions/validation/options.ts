/**
 * The switches of one CRD validation (kube's validationOptions): a create turns every rule on;
 * an update relaxes a rule the stored object already breaks, so an old CRD stays updatable
 * (see update-options.ts).
 */
import type { JSONSchemaProps } from '../interface.js';

/** Which rules apply to this write. Immutable. */
export interface ValidationOptions {
  /** Schemas may carry defaults. */
  readonly allowDefaults: boolean;
  /** Conversion review versions must include v1 or v1beta1. */
  readonly requireRecognizedConversionReviewVersion: boolean;
  /** scope and names.kind may not change (the old CRD is Established). */
  readonly requireImmutableNames: boolean;
  /** Every version needs an openAPIV3Schema. */
  readonly requireOpenAPISchema: boolean;
  /** type must be one of the OpenAPI v3 types. */
  readonly requireValidPropertyType: boolean;
  /** Schemas must be structural. */
  readonly requireStructuralSchema: boolean;
  /**
   * Defaults must survive pruning unchanged. A function is asked only when some default would
   * not (on update it checks the old schemas, which costs a compile).
   */
  readonly requirePrunedDefaults: boolean | (() => boolean);
  /** Items of x-kubernetes-list-type=set lists must be atomic. */
  readonly requireAtomicSetType: boolean;
  /** Map list keys required or defaulted and not nullable; set and map items not nullable. */
  readonly requireMapListKeysMapSetValidation: boolean;
  /** A conversion webhook caBundle that does not parse is let through. */
  readonly allowInvalidCABundle: boolean;
  /** On update: each version's schema before the write, by version name (CEL cost ratcheting). */
  readonly oldSchemas?: ReadonlyMap<string, JSONSchemaProps>;
  /** On update: the top-level schema before the write. */
  readonly oldTopLevelSchema?: JSONSchemaProps;
}

/** The options of a create: every rule on, an invalid caBundle allowed (the CRD is not established yet). */
export const createOptions: ValidationOptions = {
  allowDefaults: true,
  requireRecognizedConversionReviewVersion: true,
  requireImmutableNames: false,
  requireOpenAPISchema: true,
  requireValidPropertyType: true,
  requireStructuralSchema: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
  allowInvalidCABundle: true,
};
