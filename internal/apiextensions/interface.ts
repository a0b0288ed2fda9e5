/**
 * The shared shapes of custom resource serving (kube's apiextensions-apiserver): the schema of a
 * CRD version as stored (JSONSchemaProps), what the serving layer needs from a compiled version
 * schema (pruning, defaulting, validation, apply types), the CEL rule validator a schema carries,
 * and the converter between a CRD's versions.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { TypeResolver } from '../fieldmanager/interface.js';
import type { FieldError } from '../validation/field-error.js';

/** One x-kubernetes-validations rule (apiextensions/v1 ValidationRule). */
export interface ValidationRule {
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
  /** FieldValueInvalid (default), FieldValueForbidden, FieldValueRequired or FieldValueDuplicate. */
  readonly reason?: string;
  /** A JSON path relative to the schema node the rule sits on, e.g. ".spec.replicas" or "['a.b']". */
  readonly fieldPath?: string;
  readonly optionalOldSelf?: boolean;
}

/** apiextensions/v1 JSONSchemaProps, as a CRD stores it (every field optional, as in JSON). */
export interface JSONSchemaProps {
  readonly id?: string;
  readonly $schema?: string;
  readonly $ref?: string;
  readonly description?: string;
  readonly type?: string;
  readonly format?: string;
  readonly title?: string;
  readonly default?: unknown;
  readonly maximum?: number;
  readonly exclusiveMaximum?: boolean;
  readonly minimum?: number;
  readonly exclusiveMinimum?: boolean;
  readonly maxLength?: number;
  readonly minLength?: number;
  readonly pattern?: string;
  readonly maxItems?: number;
  readonly minItems?: number;
  readonly uniqueItems?: boolean;
  readonly multipleOf?: number;
  readonly enum?: readonly unknown[];
  readonly maxProperties?: number;
  readonly minProperties?: number;
  readonly required?: readonly string[];
  /** A schema, or (not structural; refused by validation) an array of them. */
  readonly items?: JSONSchemaProps | readonly JSONSchemaProps[];
  readonly allOf?: readonly JSONSchemaProps[];
  readonly oneOf?: readonly JSONSchemaProps[];
  readonly anyOf?: readonly JSONSchemaProps[];
  readonly not?: JSONSchemaProps;
  readonly properties?: Readonly<Record<string, JSONSchemaProps>>;
  readonly additionalProperties?: JSONSchemaProps | boolean;
  readonly patternProperties?: Readonly<Record<string, JSONSchemaProps>>;
  readonly dependencies?: Readonly<Record<string, JSONSchemaProps | readonly string[]>>;
  readonly additionalItems?: JSONSchemaProps | boolean;
  readonly definitions?: Readonly<Record<string, JSONSchemaProps>>;
  readonly externalDocs?: { readonly description?: string; readonly url?: string };
  readonly example?: unknown;
  readonly nullable?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  /** atomic, set or map. */
  readonly 'x-kubernetes-list-type'?: string;
  /** granular or atomic. */
  readonly 'x-kubernetes-map-type'?: string;
  readonly 'x-kubernetes-validations'?: readonly ValidationRule[];
}

/** How a version schema validates one write. */
export interface SchemaValidationOptions {
  /**
   * CRDValidationRatcheting: on an update, errors on values equal to the old object's (at the same
   * path) are dropped, so objects stored before a schema tightened can still be updated elsewhere.
   */
  readonly ratcheting: boolean;
}

/**
 * The x-kubernetes-validations rules of one version's schema, compiled once. Stateless; one
 * instance serves every request of the version.
 */
export interface CelValidator {
  /**
   * Evaluates every rule over obj (old: the stored object of an update, for transition rules and
   * ratcheting; undefined on create) and returns kube's field errors: path from fieldPath or the
   * rule's node, reason, message or messageExpression's result, and the cost-limit errors. Never
   * mutates either object.
   */
  validate(obj: KubeObject, old: KubeObject | undefined, opts: SchemaValidationOptions): FieldError[];
}

/**
 * One CRD version's schema compiled for serving (kube's structural schema plus its validator,
 * defaulter and pruner). Built once per CRD version and generation; stateless.
 */
export interface VersionSchema {
  /** The version's openAPIV3Schema as the CRD gives it. */
  readonly schema: JSONSchemaProps;
  /**
   * kube's pruning: removes (in place) fields the schema does not specify, except under
   * x-kubernetes-preserve-unknown-fields, and inside embedded resources keeps apiVersion, kind
   * and metadata. Returns the removed paths as "spec.foo" / "spec.list[0].bar" (what
   * fieldValidation reports as unknown fields). metadata (of the object and of embedded
   * resources) is only cut to ObjectMeta's fields, reported as "metadata.foo", as kube does.
   */
  prune(obj: KubeObject): string[];
  /** Applies the schema's defaults in place (kube's structural defaulting, also inside embedded resources). */
  applyDefaults(obj: KubeObject): void;
  /**
   * Validates obj (old on updates) against the schema: types, formats, enum, patterns, bounds,
   * nullable, int-or-string, embedded resources' apiVersion/kind/metadata, list-type set/map
   * uniqueness, and the CEL rules, with kube's paths and messages (422 causes). Never mutates.
   */
  validate(obj: KubeObject, old: KubeObject | undefined, opts: SchemaValidationOptions): FieldError[];
  /** The structured-merge-diff type of the version for managed fields and server-side apply. */
  readonly typeResolver: TypeResolver;
}

/** How a conversion is asked for. */
export interface ConvertOptions {
  /**
   * The objects are the items of one list (one webhook call for all of them, kube's list messages);
   * by default, a single object is converted as an object and several as a list.
   */
  readonly list?: boolean;
}

/**
 * Converts custom resources between a CRD's versions (strategy None: the apiVersion changes; Webhook:
 * a ConversionReview). Built once per CRD generation.
 */
export interface CustomResourceConverter {
  /**
   * The objects in apiVersion ("group/version"), in order; an object already there is returned as
   * it is (and for None, the others share everything but apiVersion with the input: treat input
   * and output as immutable). Rejects with a StatusError (a ConversionError: kube's 500
   * InternalError "Internal error occurred: conversion for ... failed: ..." that reads answer;
   * its toWriteError() is what writes answer) when the version is not the CRD's, or the webhook
   * fails or answers wrongly. Never mutates its input.
   */
  convert(objects: readonly KubeObject[], apiVersion: string, options?: ConvertOptions): Promise<KubeObject[]>;
  /** Ends the webhook client's kept-alive connections; call when the CRD generation is replaced. */
  close?(): void;
}
