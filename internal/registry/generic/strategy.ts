/**
 * Strategy: the per-resource rules the generic store applies (kube's RESTCreateStrategy,
 * RESTUpdateStrategy, RESTDeleteStrategy and friends). Stateless; one per resource. Hooks named
 * prepareFor* may mutate the object they are given; validate* and the others must not.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { RequestContext } from '../../request/context.js';
import type { FieldError } from '../../validation/field-error.js';
import type { DeleteOptions } from '../interface.js';

/** How an unsupported field selector is reported: core types and the generic meta conversion word it differently. */
export type FieldLabelStyle = 'core' | 'meta';

/** Which field selectors a resource supports and the fields an object exposes to them. */
export interface SelectableFields {
  /** Field labels beyond metadata.name and metadata.namespace, e.g. spec.nodeName. */
  readonly extra: readonly string[];
  readonly style: FieldLabelStyle;
  /** The values of the extra fields for obj (missing values are ""). */
  values?(obj: KubeObject): Record<string, string>;
  /** Rewrites a label a version spells differently into the storage spelling (events.k8s.io names). */
  readonly aliases?: Readonly<Record<string, string>>;
}

/** The garbage-collection default when a delete names no propagation policy. */
export type GarbageCollectionPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

/** Rules of one resource. */
export interface Strategy {
  readonly namespaced: boolean;
  /** PUT on a missing object creates it. */
  readonly allowCreateOnUpdate: boolean;
  /** PUT without metadata.resourceVersion overwrites unconditionally. */
  readonly allowUnconditionalUpdate: boolean;
  /** metadata.generation is 1 on create and grows whenever a non-metadata, non-status field changes. */
  readonly tracksGeneration: boolean;
  /** The resource has a status that the main resource's writes leave alone (status subresource). */
  readonly hasStatus: boolean;
  readonly selectableFields: SelectableFields;
  /** Name validation for metadata.name: DNS-1123 subdomain (most), DNS-1123 label, DNS-1035 label (services), or path segment only. */
  readonly nameValidation: 'subdomain' | 'label' | 'dns1035-label' | 'path-segment';
  /** Return the deleted object rather than a Status from delete (pods, services, ...). */
  readonly returnDeletedObject?: boolean;
  readonly defaultGarbageCollectionPolicy?: GarbageCollectionPolicy;
  /**
   * Finalizers need only be qualified names (apimachinery's ValidateObjectMeta, which kube's
   * apiextensions objects get), not core's standard-or-domain-qualified rule the built-ins get.
   */
  readonly qualifiedFinalizerNames?: boolean;

  /** Clears what a client may not set on create (status, ...); may mutate obj. */
  prepareForCreate(ctx: RequestContext, obj: KubeObject): void;
  /** Type-specific validation of a new object (metadata is validated generically). */
  validate(ctx: RequestContext, obj: KubeObject): FieldError[];
  /** Warnings for a valid new object. */
  warningsOnCreate?(ctx: RequestContext, obj: KubeObject): string[];
  /** Puts obj into canonical form before it is stored; may mutate obj. */
  canonicalize?(obj: KubeObject): void;
  /** Carries over what an update may not change (status, ...); may mutate obj, never old. */
  prepareForUpdate(ctx: RequestContext, obj: KubeObject, old: KubeObject): void;
  /** Type-specific validation of an update (immutable fields, ...). */
  validateUpdate(ctx: RequestContext, obj: KubeObject, old: KubeObject): FieldError[];
  warningsOnUpdate?(ctx: RequestContext, obj: KubeObject, old: KubeObject): string[];
  /**
   * True when something besides metadata.finalizers keeps a deleted obj in storage (namespaces:
   * spec.finalizers), so an update that clears its finalizers must not remove it.
   */
  holdsDeletion?(obj: KubeObject): boolean;
  /**
   * For graceful deletion: the grace period in seconds to apply, or 0 to delete at once. May read
   * options; must not mutate obj. Absent means every delete is immediate.
   */
  gracePeriod?(obj: KubeObject, options: DeleteOptions): number;
}

/** Rules of a status subresource: what a write to <resource>/status may change. */
export interface StatusStrategy {
  /** Copies everything but status (and what else the type allows) from old into obj; may mutate obj. */
  prepareForUpdate(ctx: RequestContext, obj: KubeObject, old: KubeObject): void;
  validateUpdate(ctx: RequestContext, obj: KubeObject, old: KubeObject): FieldError[];
}
