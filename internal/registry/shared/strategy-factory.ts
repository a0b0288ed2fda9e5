/**
 * A Strategy from a few declarative facts plus the resource's own checks: the shape most kube
 * strategies share (status reset on create and kept on update when the type has one, generation
 * starting at 1 where tracked, no extra selectable fields unless named).
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { RequestContext } from '../../request/context.js';
import type { FieldError } from '../../validation/field-error.js';
import type { GarbageCollectionPolicy, SelectableFields, Strategy } from '../generic/strategy.js';
import { keepStatusOf } from '../core/shared/status-write.js';

/** The selectable fields of a type with nothing beyond metadata (runtime.DefaultMetaV1FieldSelectorConversion). */
export const metaFieldsOnly: SelectableFields = { extra: [], style: 'meta' };

/** What a resource's strategy is made of. */
export interface StrategyOptions {
  readonly namespaced: boolean;
  /** Default false. */
  readonly allowCreateOnUpdate?: boolean;
  /** Default true. */
  readonly allowUnconditionalUpdate?: boolean;
  readonly tracksGeneration?: boolean;
  /** The type has a status its main resource's writes leave alone. */
  readonly hasStatus?: boolean;
  /** The status a create starts with when hasStatus (kube's `obj.Status = XStatus{}` is `{}`). */
  readonly initialStatus?: (obj: KubeObject) => Record<string, unknown>;
  readonly nameValidation?: Strategy['nameValidation'];
  readonly qualifiedFinalizerNames?: boolean;
  readonly defaultGarbageCollectionPolicy?: GarbageCollectionPolicy;
  readonly selectableFields?: SelectableFields;
  /** Extra create preparation, after status is reset; may mutate obj. */
  prepareForCreate?(ctx: RequestContext, obj: KubeObject): void;
  /** Extra update preparation, after status is carried over; may mutate obj, never old. */
  prepareForUpdate?(ctx: RequestContext, obj: KubeObject, old: KubeObject): void;
  /** Type checks of a new object; must not mutate. */
  validate?(obj: KubeObject, ctx: RequestContext): FieldError[];
  /** Type checks of an update; must not mutate. Absent: validate(obj) is used. */
  validateUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): FieldError[];
  warningsOnCreate?(ctx: RequestContext, obj: KubeObject): string[];
  warningsOnUpdate?(ctx: RequestContext, obj: KubeObject, old: KubeObject): string[];
  canonicalize?(obj: KubeObject): void;
}

/** Builds the Strategy described by opts. */
export function defineStrategy(opts: StrategyOptions): Strategy {
  const hasStatus = opts.hasStatus ?? false;
  const strategy: Strategy = {
    namespaced: opts.namespaced,
    allowCreateOnUpdate: opts.allowCreateOnUpdate ?? false,
    allowUnconditionalUpdate: opts.allowUnconditionalUpdate ?? true,
    tracksGeneration: opts.tracksGeneration ?? false,
    hasStatus,
    nameValidation: opts.nameValidation ?? 'subdomain',
    selectableFields: opts.selectableFields ?? metaFieldsOnly,
    ...(opts.defaultGarbageCollectionPolicy ? { defaultGarbageCollectionPolicy: opts.defaultGarbageCollectionPolicy } : {}),
    ...(opts.qualifiedFinalizerNames ? { qualifiedFinalizerNames: true } : {}),
    prepareForCreate(ctx, obj) {
      if (hasStatus) obj.status = opts.initialStatus ? opts.initialStatus(obj) : {};
      opts.prepareForCreate?.(ctx, obj);
    },
    validate(ctx, obj) {
      return opts.validate?.(obj, ctx) ?? [];
    },
    prepareForUpdate(ctx, obj, old) {
      if (hasStatus) keepStatusOf(obj, old);
      opts.prepareForUpdate?.(ctx, obj, old);
    },
    validateUpdate(ctx, obj, old) {
      if (opts.validateUpdate) return opts.validateUpdate(obj, old, ctx);
      return opts.validate?.(obj, ctx) ?? [];
    },
  };
  if (opts.warningsOnCreate) strategy.warningsOnCreate = opts.warningsOnCreate;
  if (opts.warningsOnUpdate) strategy.warningsOnUpdate = opts.warningsOnUpdate;
  if (opts.canonicalize) strategy.canonicalize = opts.canonicalize;
  return strategy;
}
