/**
 * kube's Job REST override: deleting jobs without a propagation policy orphans their pods in
 * batch/v1, so such deletes carry a warning saying so.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { addWarning, type RequestContext } from '../../../request/context.js';
import type { GenericStore } from '../../generic/store.js';
import type { DeleteOptions, DeleteResult, ListOptions, RestStorage, ValidateObjectFunc } from '../../interface.js';

/** kube's deleteOptionWarnings. */
export const orphanPodsWarning =
  'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning';

function warnIfOrphaning(ctx: RequestContext, opts: DeleteOptions): void {
  if (opts.propagationPolicy === undefined && opts.orphanDependents === undefined) addWarning(ctx, orphanPodsWarning);
}

/** The jobs storage: the generic store, with the orphaning warning on delete and deletecollection. */
export function withDeleteWarning(store: GenericStore): RestStorage {
  return {
    get: store.get.bind(store),
    list: store.list.bind(store),
    watch: store.watch.bind(store),
    create: store.create.bind(store),
    update: store.update.bind(store),
    async delete(ctx: RequestContext, name: string, opts: DeleteOptions, validate?: ValidateObjectFunc): Promise<DeleteResult> {
      warnIfOrphaning(ctx, opts);
      return await store.delete(ctx, name, opts, validate);
    },
    async deleteCollection(ctx: RequestContext, listOpts: ListOptions, deleteOpts: DeleteOptions, validate?: ValidateObjectFunc): Promise<KubeObject[]> {
      warnIfOrphaning(ctx, deleteOpts);
      return await store.deleteCollection(ctx, listOpts, deleteOpts, validate);
    },
  };
}
