/**
 * kube's PriorityClass REST override: the system priority classes (system-node-critical and
 * system-cluster-critical) cannot be deleted.
 */
import { newForbidden } from '../../../apierrors/factories.js';
import type { RequestContext } from '../../../request/context.js';
import type { GenericStore } from '../../generic/store.js';
import type { DeleteOptions, DeleteResult, RestStorage, ValidateObjectFunc } from '../../interface.js';
import { systemPriorityClasses } from './strategy.js';

function refuseSystemClass(name: string): void {
  if (systemPriorityClasses.some((c) => c.name === name)) {
    throw newForbidden({ group: 'scheduling.k8s.io', resource: 'priorityclasses' }, name, 'this is a system priority class and cannot be deleted');
  }
}

/** The priorityclasses storage: the generic store, refusing to delete a system class. */
export function protectSystemClasses(store: GenericStore): RestStorage {
  return {
    get: store.get.bind(store),
    list: store.list.bind(store),
    watch: store.watch.bind(store),
    create: store.create.bind(store),
    update: store.update.bind(store),
    async delete(ctx: RequestContext, name: string, opts: DeleteOptions, validate?: ValidateObjectFunc): Promise<DeleteResult> {
      refuseSystemClass(name);
      return await store.delete(ctx, name, opts, validate);
    },
    // kube's DeleteCollection bypasses the override (its store deletes item by item itself).
    deleteCollection: store.deleteCollection.bind(store),
  };
}
