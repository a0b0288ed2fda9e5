/**
 * Two-phase deletion (kube's Store.Delete with rest.BeforeDelete): preconditions, graceful
 * deletion, and the garbage collector's `orphan` / `foregroundDeletion` finalizers chosen by the
 * propagation policy. An object with finalizers or a grace period is only marked (deletionTimestamp
 * set) and stays until the last finalizer is removed or it is deleted again with no grace.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { newConflict } from '../../apierrors/factories.js';
import type { RequestContext } from '../../request/context.js';
import { isStorageError } from '../../storage/errors.js';
import type { DeleteOptions, DeleteResult, ValidateObjectFunc } from '../interface.js';
import { metaTime } from './object-meta.js';
import type { GenericStore } from './store.js';
import { interpretStorageError } from './storage-errors.js';

/** The finalizer the garbage collector uses to orphan dependents. */
export const orphanFinalizer = 'orphan';
/** The finalizer the garbage collector uses for foreground deletion. */
export const foregroundFinalizer = 'foregroundDeletion';

function shouldOrphan(store: GenericStore, obj: KubeObject, opts: DeleteOptions): boolean {
  const policy = store.strategy.defaultGarbageCollectionPolicy ?? 'DeleteDependents';
  if (policy === 'Unsupported') return false;
  if (opts.orphanDependents !== undefined) return opts.orphanDependents;
  if (opts.propagationPolicy) return opts.propagationPolicy === 'Orphan';
  for (const f of obj.metadata.finalizers ?? []) {
    if (f === orphanFinalizer) return true;
    if (f === foregroundFinalizer) return false;
  }
  return policy === 'OrphanDependents';
}

function shouldDeleteDependents(store: GenericStore, obj: KubeObject, opts: DeleteOptions): boolean {
  if (store.strategy.defaultGarbageCollectionPolicy === 'Unsupported') return false;
  if (opts.orphanDependents !== undefined) return false;
  if (opts.propagationPolicy) return opts.propagationPolicy === 'Foreground';
  return (obj.metadata.finalizers ?? []).includes(foregroundFinalizer);
}

/** The finalizers after applying the propagation policy, or undefined when they do not change. */
function gcFinalizers(store: GenericStore, obj: KubeObject, opts: DeleteOptions): string[] | undefined {
  const current = obj.metadata.finalizers ?? [];
  const next = current.filter((f) => f !== orphanFinalizer && f !== foregroundFinalizer);
  if (shouldOrphan(store, obj, opts)) next.push(orphanFinalizer);
  if (shouldDeleteDependents(store, obj, opts)) next.push(foregroundFinalizer);
  const a = new Set(current);
  const b = new Set(next);
  if (a.size === b.size && [...a].every((f) => b.has(f))) return undefined;
  return next;
}

type Graceful = { kind: 'immediate' } | { kind: 'pending' } | { kind: 'graceful' };

/**
 * rest.BeforeDelete: decides whether obj is deleted now, already pending, or marked with a grace
 * period; mutates obj's deletion fields when it is marked.
 */
function beforeDelete(store: GenericStore, obj: KubeObject, opts: DeleteOptions): Graceful {
  const meta = obj.metadata;
  if (!store.strategy.gracePeriod) return { kind: 'immediate' };
  let requested = opts.gracePeriodSeconds;
  if (requested !== undefined && requested < 0) requested = 1;
  if (meta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds < 0) meta.deletionGracePeriodSeconds = 1;
  if (meta.deletionTimestamp) {
    const current = meta.deletionGracePeriodSeconds;
    if (current === undefined || current === 0) return { kind: 'immediate' };
    if (requested === undefined || requested >= current) return { kind: 'pending' };
    // Only a shorter grace period may be given; the deadline moves earlier by the difference.
    const start = Date.parse(meta.deletionTimestamp) - current * 1000;
    meta.deletionTimestamp = metaTime(start + requested * 1000);
    meta.deletionGracePeriodSeconds = requested;
    return { kind: 'graceful' };
  }
  const grace = store.strategy.gracePeriod(obj, { ...opts, ...(requested !== undefined ? { gracePeriodSeconds: requested } : {}) });
  if (grace <= 0) return { kind: 'immediate' };
  meta.deletionTimestamp = metaTime(Date.now() + grace * 1000);
  meta.deletionGracePeriodSeconds = grace;
  if ((meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  return { kind: 'graceful' };
}

/** Throws 409 Conflict when the delete's uid or resourceVersion precondition does not hold for obj. */
export function checkPreconditions(store: { readonly gr: { group: string; resource: string } }, name: string, obj: KubeObject, opts: DeleteOptions): void {
  const pre = opts.preconditions;
  if (!pre) return;
  if (pre.uid !== undefined && pre.uid !== obj.metadata.uid) {
    throw newConflict(store.gr, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`);
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== obj.metadata.resourceVersion) {
    throw newConflict(
      store.gr,
      name,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`,
    );
  }
}

/** Deletes or marks one object; see the file comment. */
export async function deleteObject(
  store: GenericStore,
  ctx: RequestContext,
  name: string,
  opts: DeleteOptions,
  validate?: ValidateObjectFunc,
): Promise<DeleteResult> {
  const namespace = store.strategy.namespaced ? ctx.requestInfo.namespace : '';
  const key = store.objectKey(namespace, name);
  let existing: KubeObject;
  try {
    existing = await store.storage.get(key, { resourceVersion: '' });
  } catch (err) {
    throw interpretStorageError(err, store.gr, name, 'delete');
  }
  checkPreconditions(store, name, existing, opts);
  const probe = structuredClone(existing);
  const first = beforeDelete(store, probe, opts);
  if (first.kind === 'pending') return { object: existing, deleted: false };

  const needsMark = first.kind === 'graceful' || (existing.metadata.finalizers?.length ?? 0) > 0 || gcFinalizers(store, existing, opts) !== undefined;
  let preconditionRV = opts.preconditions?.resourceVersion;
  if (needsMark) {
    const state: { outcome: 'marked' | 'delete-now' | 'pending' } = { outcome: 'marked' };
    const markObject = (current: KubeObject): KubeObject => {
      checkPreconditions(store, name, current, opts);
      const obj = current;
      const finalizers = gcFinalizers(store, obj, opts);
      if (finalizers !== undefined) obj.metadata.finalizers = finalizers;
      const g = beforeDelete(store, obj, opts);
      if (g.kind === 'pending') {
        state.outcome = 'pending';
        return current;
      }
      const noFinalizers = (obj.metadata.finalizers?.length ?? 0) === 0;
      // No finalizers and no grace left (never graceful, or a grace period shortened to 0): delete now.
      if (noFinalizers && (g.kind !== 'graceful' || obj.metadata.deletionGracePeriodSeconds === 0)) {
        state.outcome = 'delete-now';
        return current;
      }
      if (g.kind !== 'graceful') {
        // Finalizers keep it: mark it deleted now with no grace left.
        if (!obj.metadata.deletionTimestamp) obj.metadata.deletionTimestamp = metaTime();
        if (obj.metadata.deletionGracePeriodSeconds === undefined) obj.metadata.deletionGracePeriodSeconds = 0;
      }
      if (obj.metadata.finalizers?.length === 0) delete obj.metadata.finalizers;
      state.outcome = 'marked';
      return obj;
    };
    if (opts.dryRun) {
      const obj = markObject(structuredClone(existing));
      if (state.outcome !== 'delete-now') return { object: obj, deleted: false };
      return { object: existing, deleted: true };
    }
    let updated: KubeObject;
    try {
      updated = await store.storage.guaranteedUpdate(key, {
        ignoreNotFound: false,
        tryUpdate: async (current) => {
          const obj = markObject(current);
          if (state.outcome === 'marked') await validate?.(ctx, structuredClone(obj), current);
          return obj;
        },
      });
    } catch (err) {
      throw interpretStorageError(err, store.gr, name, 'delete');
    }
    if (state.outcome === 'pending') return { object: updated, deleted: false };
    if (state.outcome === 'marked') return { object: updated, deleted: false };
    if (preconditionRV !== undefined) preconditionRV = updated.metadata.resourceVersion;
  }

  if (opts.dryRun) return { object: existing, deleted: true };
  try {
    const gone = await store.storage.delete(key, {
      preconditions: {
        ...(opts.preconditions?.uid !== undefined ? { uid: opts.preconditions.uid } : {}),
        ...(preconditionRV !== undefined ? { resourceVersion: preconditionRV } : {}),
      },
      validateDeletion: async (current) => {
        await validate?.(ctx, structuredClone(current), current);
      },
    });
    await store.hooks.afterDelete?.(ctx, gone);
    return { object: gone, deleted: true };
  } catch (err) {
    if (isStorageError(err, 'InvalidObj')) throw newConflict(store.gr, name, err.message);
    throw interpretStorageError(err, store.gr, name, 'delete');
  }
}
