/**
 * The system-owned metadata steps of create and update (kube's rest.BeforeCreate and
 * rest.BeforeUpdate): namespace from the URL, uid and creationTimestamp, generateName,
 * generation, and what an update may never change.
 */
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../api/meta/types.js';
import { newBadRequest, newInvalid } from '../../apierrors/factories.js';
import type { StatusError } from '../../apierrors/status-error.js';
import { addWarning, type RequestContext } from '../../request/context.js';
import { fieldErrorCause, type FieldError } from '../../validation/field-error.js';
import { hasSchema, validateSchema } from '../../validation/schema/index.js';
import { nameValidatorFor, validateObjectMeta, validateObjectMetaUpdate } from './object-meta-validation.js';
import type { Strategy } from './strategy.js';
import { setOwnKey } from '../../collections/own-key.js';

const nameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';
const maxGeneratedNameLength = 63 - 5;

/** kube's SimpleNameGenerator: the base (cut to 58 characters) plus five random characters. */
export function generateName(base: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += nameAlphabet[Math.floor(Math.random() * nameAlphabet.length)];
  return (base.length > maxGeneratedNameLength ? base.slice(0, maxGeneratedNameLength) : base) + suffix;
}

/** A metav1.Time: RFC 3339 in UTC with second precision. */
export function metaTime(epochMs: number = Date.now()): string {
  return `${new Date(Math.floor(epochMs / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/**
 * The schema's structural checks (missing lists and maps kube requires, duplicate list-map keys and
 * set items) for obj's own apiVersion and kind, minus what the handwritten rules already reported.
 */
function schemaErrors(obj: KubeObject, reported: readonly FieldError[]): FieldError[] {
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return [];
  const slash = obj.apiVersion.indexOf('/');
  const gvk = { group: slash < 0 ? '' : obj.apiVersion.slice(0, slash), version: obj.apiVersion.slice(slash + 1), kind: obj.kind };
  if (!hasSchema(gvk)) return [];
  const seen = new Set(reported.map((e) => `${e.type} ${e.field}`));
  return validateSchema(gvk, obj).filter((e) => !seen.has(`${e.type} ${e.field}`));
}

/** The kind/group an Invalid error names. */
export interface KindInfo {
  readonly group: string;
  readonly kind: string;
}

/** Builds the 422 for errs, or returns undefined when there are none. */
export function invalidError(kind: KindInfo, name: string, errs: readonly FieldError[]): StatusError | undefined {
  if (errs.length === 0) return undefined;
  return newInvalid(kind.group, kind.kind, name, errs.map(fieldErrorCause));
}

function checkNamespace(strategy: Strategy, ctx: RequestContext, obj: KubeObject, requestNamespace: string): void {
  if (strategy.namespaced) {
    if (!obj.metadata.namespace) obj.metadata.namespace = requestNamespace;
    else if (requestNamespace && obj.metadata.namespace !== requestNamespace) {
      throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
  } else {
    delete obj.metadata.namespace;
  }
  void ctx;
}

/**
 * Fills system fields of a new object and validates it; mutates obj. Throws 400 on a namespace
 * mismatch and 422 with every field error.
 */
export function beforeCreate(strategy: Strategy, kind: KindInfo, ctx: RequestContext, obj: KubeObject, requestNamespace: string): void {
  checkNamespace(strategy, ctx, obj, requestNamespace);
  const meta = obj.metadata;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  // As in kube, identity comes first: a strategy may build on the uid and the generated name.
  meta.uid = randomUUID();
  meta.creationTimestamp = metaTime();
  if (meta.generateName && !meta.name) meta.name = generateName(meta.generateName);
  strategy.prepareForCreate(ctx, obj);
  if (strategy.tracksGeneration) meta.generation = 1;
  else delete meta.generation;
  const errs = [...validateObjectMeta(meta, strategy.namespaced, nameValidatorFor(strategy.nameValidation), strategy.qualifiedFinalizerNames), ...strategy.validate(ctx, obj)];
  errs.push(...schemaErrors(obj, errs));
  const err = invalidError(kind, meta.name ?? '', errs);
  if (err) throw err;
  for (const w of strategy.warningsOnCreate?.(ctx, obj) ?? []) addWarning(ctx, w);
  strategy.canonicalize?.(obj);
}

/**
 * Carries system fields over from old, lets the strategy reset what the write may not change,
 * bumps generation when the object's content changed, and validates; mutates obj, never old.
 */
export function beforeUpdate(
  strategy: Strategy,
  kind: KindInfo,
  ctx: RequestContext,
  obj: KubeObject,
  old: KubeObject,
  requestNamespace: string,
  prepare: (ctx: RequestContext, obj: KubeObject, old: KubeObject) => void = strategy.prepareForUpdate.bind(strategy),
  validate: (ctx: RequestContext, obj: KubeObject, old: KubeObject) => FieldError[] = strategy.validateUpdate.bind(strategy),
): void {
  checkNamespace(strategy, ctx, obj, requestNamespace);
  const meta = obj.metadata;
  const oldMeta = old.metadata;
  meta.generation = oldMeta.generation;
  if (meta.generation === undefined) delete meta.generation;
  prepare(ctx, obj, old);
  if (!meta.uid) meta.uid = oldMeta.uid;
  if (oldMeta.creationTimestamp) meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  else delete meta.deletionTimestamp;
  if (oldMeta.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  else delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  if (strategy.tracksGeneration && contentChanged(obj, old)) meta.generation = (oldMeta.generation ?? 0) + 1;
  const errs = [...validateObjectMetaUpdate(meta, oldMeta, strategy.qualifiedFinalizerNames), ...validate(ctx, obj, old)];
  errs.push(...schemaErrors(obj, errs));
  const err = invalidError(kind, meta.name ?? '', errs);
  if (err) throw err;
  for (const w of strategy.warningsOnUpdate?.(ctx, obj, old) ?? []) addWarning(ctx, w);
  strategy.canonicalize?.(obj);
}

/**
 * True when anything but metadata and status differs (what kube's strategies compare to bump
 * generation), compared as Go's typed values compare: null, "", {} and [] are a field's zero value,
 * the same as leaving it out (a Protobuf body carries them where JSON did not).
 */
export function contentChanged(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject): string => {
    const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = o;
    return stableStringify(withoutZeroValues(rest));
  };
  return strip(obj) !== strip(old);
}

/** value without the fields whose value is null, "", {} or [] (recursively); list items stay. */
export function withoutZeroValues(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutZeroValues);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const x = withoutZeroValues(v);
    if (x === null || x === '' || (typeof x === 'object' && Object.keys(x as object).length === 0)) continue;
    setOwnKey(out, k, x);
  }
  return out;
}

/** JSON with object keys sorted, for order-insensitive comparison. */
export function stableStringify(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(',')}]`;
  const keys = Object.keys(v as object).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify((v as Record<string, unknown>)[k])}`).join(',')}}`;
}
