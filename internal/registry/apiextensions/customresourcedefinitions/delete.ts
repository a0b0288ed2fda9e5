/**
 * kube's CustomResourceDefinition REST Delete: the first delete of a CRD only marks it
 * (deletionTimestamp now, the customresourcecleanup.apiextensions.k8s.io finalizer, and Terminating
 * "InstanceDeletionPending"), so the CRD finalizer can delete every instance before the CRD goes;
 * later deletes take the generic path, which removes the CRD once the finalizer is gone. A delete
 * always carries the CRD's uid as precondition, so a CRD recreated meanwhile is not the one deleted.
 * deletecollection takes the generic path per item, as kube's does (its store calls its own Delete).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { RequestContext } from '../../../request/context.js';
import { checkPreconditions } from '../../generic/delete.js';
import { metaTime } from '../../generic/object-meta.js';
import { interpretStorageError } from '../../generic/storage-errors.js';
import type { GenericStore } from '../../generic/store.js';
import type { DeleteOptions, DeleteResult, RestStorage, ValidateObjectFunc } from '../../interface.js';

/** The finalizer that holds a deleted CRD until its instances are gone. */
export const customResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

interface Condition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** Marks crd deleted (kube's first-delete update). Mutates crd. */
export function markCrdForDeletion(crd: KubeObject): void {
  const meta = crd.metadata;
  if (!meta.deletionTimestamp) meta.deletionTimestamp = metaTime();
  if (!(meta.finalizers ?? []).includes(customResourceCleanupFinalizer)) meta.finalizers = [...(meta.finalizers ?? []), customResourceCleanupFinalizer];
  const status = (crd.status ??= {}) as { conditions?: Condition[] };
  const conditions = Array.isArray(status.conditions) ? status.conditions : (status.conditions = []);
  const i = conditions.findIndex((c) => c.type === 'Terminating');
  const old = conditions[i];
  const cond: Condition = {
    type: 'Terminating',
    status: 'True',
    lastTransitionTime: old && old.status === 'True' && old.lastTransitionTime ? old.lastTransitionTime : metaTime(),
    reason: 'InstanceDeletionPending',
    message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
  };
  if (old) conditions[i] = cond;
  else conditions.push(cond);
}

/** The customresourcedefinitions storage: the generic store with kube's CRD delete. */
export function withCleanupFinalizer(store: GenericStore): RestStorage {
  return {
    get: store.get.bind(store),
    list: store.list.bind(store),
    watch: store.watch.bind(store),
    create: store.create.bind(store),
    update: store.update.bind(store),
    deleteCollection: store.deleteCollection.bind(store),
    async delete(ctx: RequestContext, name: string, opts: DeleteOptions, validate?: ValidateObjectFunc): Promise<DeleteResult> {
      const existing = await store.get(ctx, name, { resourceVersion: '' });
      const withUid: DeleteOptions = { ...opts, preconditions: { ...opts.preconditions, uid: opts.preconditions?.uid ?? existing.metadata.uid ?? '' } };
      checkPreconditions(store, name, existing, withUid);
      if (existing.metadata.deletionTimestamp) return await store.delete(ctx, name, withUid, validate);
      const mark = async (current: KubeObject): Promise<KubeObject> => {
        checkPreconditions(store, name, current, withUid);
        await validate?.(ctx, structuredClone(current), current);
        markCrdForDeletion(current);
        return current;
      };
      if (opts.dryRun) return { object: await mark(structuredClone(existing)), deleted: false };
      try {
        const object = await store.storage.guaranteedUpdate(store.objectKey('', name), { ignoreNotFound: false, tryUpdate: mark });
        return { object, deleted: false };
      } catch (err) {
        throw interpretStorageError(err, store.gr, name, 'delete');
      }
    },
  };
}
