/**
 * Namespace storage. Deleting a namespace first only marks it (deletionTimestamp, phase
 * Terminating); the namespace controller empties it, removes the `kubernetes` finalizer through
 * namespaces/finalize and deletes it again, which then removes it once no finalizer is left.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { RequestContext } from '../../../request/context.js';
import type { ListResult, StorageWatch } from '../../../storage/interface.js';
import { checkPreconditions, foregroundFinalizer, orphanFinalizer } from '../../generic/delete.js';
import { metaTime } from '../../generic/object-meta.js';
import { StatusStore } from '../../generic/status-store.js';
import { GenericStore } from '../../generic/store.js';
import { interpretStorageError } from '../../generic/storage-errors.js';
import type {
  DeleteOptions,
  DeleteResult,
  GetOptions,
  ListOptions,
  RestStorage,
  UpdatedObjectInfo,
  UpdateResult,
  ValidateObjectFunc,
  WriteOptions,
} from '../../interface.js';
import type { RegistryDeps, ResourceRegistration } from '../../registration.js';
import { defaultNamespace, namespaceFinalizeStrategy, namespaceStrategy, specFinalizers } from './strategy.js';

function gcFinalizerWanted(opts: DeleteOptions, current: readonly string[]): { orphan: boolean; foreground: boolean } {
  if (opts.orphanDependents !== undefined) return { orphan: opts.orphanDependents, foreground: false };
  if (opts.propagationPolicy) return { orphan: opts.propagationPolicy === 'Orphan', foreground: opts.propagationPolicy === 'Foreground' };
  return { orphan: current.includes(orphanFinalizer), foreground: current.includes(foregroundFinalizer) };
}

/** The namespaces RestStorage: the generic store with namespace deletion semantics. */
export class NamespaceStore implements RestStorage {
  constructor(readonly store: GenericStore) {}

  get(ctx: RequestContext, name: string, opts: GetOptions): Promise<KubeObject> {
    return this.store.get(ctx, name, opts);
  }

  list(ctx: RequestContext, opts: ListOptions): Promise<ListResult> {
    return this.store.list(ctx, opts);
  }

  watch(ctx: RequestContext, opts: ListOptions): Promise<StorageWatch> {
    return this.store.watch(ctx, opts);
  }

  create(ctx: RequestContext, obj: KubeObject, opts: WriteOptions, validate?: ValidateObjectFunc): Promise<KubeObject> {
    return this.store.create(ctx, obj, opts, validate);
  }

  update(ctx: RequestContext, name: string, info: UpdatedObjectInfo, opts: WriteOptions, validate?: ValidateObjectFunc): Promise<UpdateResult> {
    return this.store.update(ctx, name, info, opts, validate);
  }

  async delete(ctx: RequestContext, name: string, opts: DeleteOptions, validate?: ValidateObjectFunc): Promise<DeleteResult> {
    const existing = await this.store.get(ctx, name, { resourceVersion: '' });
    const pre = opts.preconditions;
    checkPreconditions(this.store, name, existing, opts);
    if (!existing.metadata.deletionTimestamp) {
      await validate?.(ctx, structuredClone(existing), existing);
      const mark = (current: KubeObject): KubeObject => {
        const obj = current;
        if (!obj.metadata.deletionTimestamp) obj.metadata.deletionTimestamp = metaTime();
        if (obj.metadata.deletionGracePeriodSeconds === undefined) obj.metadata.deletionGracePeriodSeconds = 0;
        obj.status = { ...((obj.status as object | undefined) ?? {}), phase: 'Terminating' };
        const finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== orphanFinalizer && f !== foregroundFinalizer);
        const want = gcFinalizerWanted(opts, obj.metadata.finalizers ?? []);
        if (want.orphan) finalizers.push(orphanFinalizer);
        if (want.foreground) finalizers.push(foregroundFinalizer);
        if (finalizers.length > 0) obj.metadata.finalizers = finalizers;
        else delete obj.metadata.finalizers;
        return obj;
      };
      if (opts.dryRun) return { object: mark(structuredClone(existing)), deleted: false, returnDeletedObject: true };
      try {
        const updated = await this.store.storage.guaranteedUpdate(this.store.objectKey('', name), {
          ignoreNotFound: false,
          ...(pre ? { preconditions: pre } : {}),
          tryUpdate: mark,
        });
        return { object: updated, deleted: false, returnDeletedObject: true };
      } catch (err) {
        throw interpretStorageError(err, this.store.gr, name, 'delete');
      }
    }
    // Terminating: it goes only once the namespace controller has emptied and finalized it.
    if (specFinalizers(existing).length > 0) return { object: existing, deleted: false, returnDeletedObject: true };
    return await this.store.delete(ctx, name, opts, validate);
  }
}

/** The namespaces resource module (with status and finalize). */
export function namespacesModule(deps: RegistryDeps): ResourceRegistration[] {
  const store = new GenericStore({ group: '', resource: 'namespaces', kind: 'Namespace', keyPrefix: '/namespaces' }, namespaceStrategy, deps.storage, {}, deps.storeSettings);
  return [
    {
      group: '',
      version: 'v1',
      resource: 'namespaces',
      namespaced: false,
      main: new NamespaceStore(store),
      subresources: { status: new StatusStore(store), finalize: new StatusStore(store, namespaceFinalizeStrategy) },
      selectableFields: namespaceStrategy.selectableFields,
      defaulter: defaultNamespace,
    },
  ];
}
