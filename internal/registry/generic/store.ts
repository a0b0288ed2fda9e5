/**
 * The generic resource store (kube's registry/generic/registry.Store): one per resource, built
 * from a Strategy and a Storage. It owns keys, selection, the metadata rules of create and update,
 * optimistic concurrency, and two-phase deletion (graceful deletion and finalizers).
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { newBadRequest, newConflict, newInvalid, newNotFound, optimisticLockErrorMsg } from '../../apierrors/factories.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { RequestContext } from '../../request/context.js';
import { isStorageError } from '../../storage/errors.js';
import type { ListResult, ObjectAttrs, SelectionPredicate, Storage, StorageWatch } from '../../storage/interface.js';
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
} from '../interface.js';
import { deleteObject } from './delete.js';
import { noFinish, type FinishFunc, type StoreHooks } from './hooks.js';
import { beforeCreate, beforeUpdate, type KindInfo } from './object-meta.js';
import type { Strategy } from './strategy.js';
import { interpretStorageError } from './storage-errors.js';

/** How many times a create with generateName retries after a name clash (kube's RetryGenerateName). */
const generateNameRetries = 8;

/** What identifies the resource a store serves. */
export interface StoreResource {
  readonly group: string;
  readonly resource: string;
  /** The kind of the storage version, for Invalid errors. */
  readonly kind: string;
  /** The key prefix under --etcd-prefix, e.g. "/configmaps" or "/services/specs". */
  readonly keyPrefix: string;
}

/** Server-wide settings of stores (kube's generic.RESTOptions and the store's TTLFunc). */
export interface StoreSettings {
  /** --delete-collection-workers: how many deletes of a deletecollection run at once (at least 1). */
  readonly deleteCollectionWorkers?: number;
  /** Seconds every object written lives in storage (kube's TTLFunc; events: --event-ttl); absent: forever. */
  readonly ttlSeconds?: number;
}

/** The generic store. Implements every verb of RestStorage. */
export class GenericStore implements RestStorage {
  readonly gr: { group: string; resource: string };
  readonly kind: KindInfo;
  /** The resource's own storage: its watch cache when the store has one for it. */
  readonly storage: Storage;

  constructor(
    readonly resource: StoreResource,
    readonly strategy: Strategy,
    storage: Storage,
    readonly hooks: StoreHooks = {},
    readonly settings: StoreSettings = {},
  ) {
    this.gr = { group: resource.group, resource: resource.resource };
    this.kind = { group: resource.group, kind: resource.kind };
    this.storage = storage.forResource ? storage.forResource(this.gr, resource.keyPrefix) : storage;
  }

  /** The storage key of one object. */
  objectKey(namespace: string, name: string): string {
    return this.strategy.namespaced ? `${this.resource.keyPrefix}/${namespace}/${name}` : `${this.resource.keyPrefix}/${name}`;
  }

  /** The storage key of a collection: all namespaces, or one. */
  collectionKey(namespace: string): string {
    return this.strategy.namespaced && namespace ? `${this.resource.keyPrefix}/${namespace}` : this.resource.keyPrefix;
  }

  /** Fields an object exposes to field selectors. */
  fieldsOf(obj: KubeObject): Record<string, string> {
    const fields: Record<string, string> = { 'metadata.name': obj.metadata.name ?? '' };
    if (this.strategy.namespaced) fields['metadata.namespace'] = obj.metadata.namespace ?? '';
    const extra = this.strategy.selectableFields.values?.(obj);
    return extra ? Object.assign(fields, extra) : fields;
  }

  /** The storage predicate for list options (selectors already validated by the endpoint). */
  predicate(opts: ListOptions): SelectionPredicate {
    const label = opts.labelSelector;
    const field = opts.fieldSelector;
    const labelEmpty = label.empty();
    const fieldEmpty = field.empty();
    const exactName = field.requiresExactMatch('metadata.name');
    const matchesAttrs = (attrs: ObjectAttrs): boolean => (labelEmpty || label.matches(attrs.labels)) && (fieldEmpty || field.matches(attrs.fields));
    return {
      everything: labelEmpty && fieldEmpty,
      matches: (obj) =>
        (labelEmpty || label.matches(obj.metadata.labels)) && (fieldEmpty || field.matches(this.fieldsOf(obj))),
      attrs: (obj) => ({ labels: obj.metadata.labels, fields: this.fieldsOf(obj) }),
      matchesAttrs,
      requiredFieldValue: (name) => (fieldEmpty ? undefined : field.requiresExactMatch(name)),
      ...(opts.limit > 0 ? { limit: opts.limit } : {}),
      ...(opts.continueToken ? { continueToken: opts.continueToken } : {}),
      ...(exactName !== undefined ? { exactName } : {}),
    };
  }

  private namespaceOf(ctx: RequestContext): string {
    return this.strategy.namespaced ? ctx.requestInfo.namespace : '';
  }

  /** Storage key and recursion for a list or watch: one key when the selector names one object. */
  private listTarget(ctx: RequestContext, pred: SelectionPredicate): { key: string; recursive: boolean } {
    const ns = this.namespaceOf(ctx);
    if (pred.exactName !== undefined && (ns || !this.strategy.namespaced) && !pred.continueToken) {
      return { key: this.objectKey(ns, pred.exactName), recursive: false };
    }
    return { key: this.collectionKey(ns), recursive: true };
  }

  async get(ctx: RequestContext, name: string, opts: GetOptions): Promise<KubeObject> {
    try {
      return await this.storage.get(this.objectKey(this.namespaceOf(ctx), name), { resourceVersion: opts.resourceVersion });
    } catch (err) {
      throw interpretStorageError(err, this.gr, name, 'get');
    }
  }

  async list(ctx: RequestContext, opts: ListOptions): Promise<ListResult> {
    const pred = this.predicate(opts);
    const target = this.listTarget(ctx, pred);
    try {
      return await this.storage.getList(target.key, {
        resourceVersion: opts.resourceVersion,
        resourceVersionMatch: opts.resourceVersionMatch,
        predicate: pred,
        recursive: target.recursive,
      });
    } catch (err) {
      throw interpretStorageError(err, this.gr, '', 'list');
    }
  }

  async watch(ctx: RequestContext, opts: ListOptions): Promise<StorageWatch> {
    const pred = this.predicate({ ...opts, limit: 0, continueToken: '' });
    const target = this.listTarget(ctx, pred);
    try {
      return await this.storage.watch(target.key, {
        resourceVersion: opts.resourceVersion,
        resourceVersionMatch: opts.resourceVersionMatch,
        predicate: pred,
        recursive: target.recursive,
        ...(opts.sendInitialEvents !== undefined ? { sendInitialEvents: opts.sendInitialEvents } : {}),
        allowWatchBookmarks: opts.allowWatchBookmarks,
      });
    } catch (err) {
      throw interpretStorageError(err, this.gr, '', 'watch');
    }
  }

  async create(ctx: RequestContext, input: KubeObject, opts: WriteOptions, validate?: ValidateObjectFunc): Promise<KubeObject> {
    const ns = ctx.requestInfo.namespace;
    if (input.metadata.resourceVersion) {
      // kube answers this with a reasonless 500; it is the client's mistake, so Capstan says 400.
      throw newBadRequest('resourceVersion should not be set on objects to be created');
    }
    const generated = Boolean(input.metadata.generateName && !input.metadata.name);
    // A generated name that clashes starts the whole create again from the request, as kube's
    // RetryGenerateName does, so whatever was derived from the name (labels, selectors) follows.
    const pristine = generated ? structuredClone(input) : undefined;
    for (let attempt = 0; ; attempt++) {
      const obj = attempt === 0 || !pristine ? input : structuredClone(pristine);
      beforeCreate(this.strategy, this.kind, ctx, obj, ns);
      await validate?.(ctx, structuredClone(obj), undefined);
      const finish = this.hooks.beginCreate ? await this.hooks.beginCreate(ctx, obj, opts.dryRun) : noFinish;
      if (opts.dryRun) {
        await finish(false);
        return obj;
      }
      const name = obj.metadata.name ?? '';
      try {
        const created = await this.storage.create(
          this.objectKey(obj.metadata.namespace ?? '', name),
          obj,
          this.settings.ttlSeconds ? { ttlSeconds: this.settings.ttlSeconds } : undefined,
        );
        await finish(true);
        return created;
      } catch (err) {
        await finish(false);
        if (generated && isStorageError(err, 'KeyExists') && attempt < generateNameRetries) continue;
        const status = interpretStorageError(err, this.gr, name, 'create');
        if (hasReason(status, 'AlreadyExists')) await this.markIfBeingDeleted(status as Error, obj);
        throw status;
      }
    }
  }


  /** Prefixes "object is being deleted: " to AlreadyExists when the existing object is terminating, as kube does. */
  private async markIfBeingDeleted(err: Error, obj: KubeObject): Promise<void> {
    try {
      const existing = await this.storage.get(this.objectKey(obj.metadata.namespace ?? '', obj.metadata.name ?? ''), { resourceVersion: '' });
      if (existing.metadata.deletionTimestamp) {
        const status = (err as unknown as { status: { message?: string } }).status;
        status.message = `object is being deleted: ${status.message ?? ''}`;
        err.message = status.message;
      }
    } catch {
      // The original AlreadyExists stands.
    }
  }

  async update(
    ctx: RequestContext,
    name: string,
    info: UpdatedObjectInfo,
    opts: WriteOptions & { forceAllowCreate?: boolean },
    validate?: ValidateObjectFunc,
  ): Promise<UpdateResult> {
    return await this.updateWith(ctx, name, info, opts, validate, undefined);
  }

  /**
   * The update core, shared with subresources: prepare/validate default to the strategy's, and a
   * status strategy passes its own so only status changes.
   */
  async updateWith(
    ctx: RequestContext,
    name: string,
    info: UpdatedObjectInfo,
    opts: WriteOptions & { forceAllowCreate?: boolean },
    validate: ValidateObjectFunc | undefined,
    sub: Pick<Strategy, 'prepareForUpdate' | 'validateUpdate'> | undefined,
  ): Promise<UpdateResult> {
    const ns = this.namespaceOf(ctx);
    const key = this.objectKey(ns, name);
    let created = false;
    let deleteAfter = false;
    let finish: FinishFunc = noFinish;
    const tryUpdate = async (existing: KubeObject): Promise<KubeObject> => {
      const exists = Boolean(existing.metadata.resourceVersion);
      created = false;
      deleteAfter = false;
      // A previous attempt lost the race: undo what its hook did before trying again.
      await finish(false);
      finish = noFinish;
      const obj = await info.updatedObject(ctx, exists ? existing : undefined);
      if (!exists) {
        if (sub || !(this.strategy.allowCreateOnUpdate || opts.forceAllowCreate)) throw newNotFound(this.gr, name);
        created = true;
        delete obj.metadata.resourceVersion;
        checkNameMatches(obj, name);
        beforeCreate(this.strategy, this.kind, ctx, obj, ns);
        await validate?.(ctx, structuredClone(obj), undefined);
        if (this.hooks.beginCreate) finish = await this.hooks.beginCreate(ctx, obj, Boolean(opts.dryRun));
        return obj;
      }
      const newRV = obj.metadata.resourceVersion;
      if (!newRV) {
        if (!this.strategy.allowUnconditionalUpdate) {
          // kube names the resource (not the kind) here and renders the missing version as Go's 0x0.
          throw newInvalid(this.gr.group, this.gr.resource, name, [
            {
              reason: 'FieldValueInvalid',
              field: 'metadata.resourceVersion',
              message: 'Invalid value: 0x0: must be specified for an update',
              text: 'metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
            },
          ]);
        }
        obj.metadata.resourceVersion = existing.metadata.resourceVersion;
      } else if (newRV !== existing.metadata.resourceVersion) {
        throw newConflict(this.gr, name, optimisticLockErrorMsg);
      }
      checkNameMatches(obj, name);
      beforeUpdate(
        this.strategy,
        this.kind,
        ctx,
        obj,
        existing,
        ns,
        sub ? sub.prepareForUpdate.bind(sub) : undefined,
        sub ? sub.validateUpdate.bind(sub) : undefined,
      );
      await validate?.(ctx, structuredClone(obj), existing);
      deleteAfter = shouldDeleteDuringUpdate(obj, existing) && !this.strategy.holdsDeletion?.(obj);
      if (this.hooks.beginUpdate && !sub) finish = await this.hooks.beginUpdate(ctx, obj, existing, Boolean(opts.dryRun));
      return obj;
    };

    if (opts.dryRun) {
      let existing: KubeObject;
      try {
        existing = await this.storage.get(key, { resourceVersion: '' });
      } catch (err) {
        if (!isStorageError(err, 'NotFound')) throw interpretStorageError(err, this.gr, name, 'update');
        existing = { metadata: {} };
      }
      const obj = await tryUpdate(existing);
      await finish(false);
      return { object: obj, created };
    }

    let stored: KubeObject;
    try {
      stored = await this.storage.guaranteedUpdate(key, {
        ignoreNotFound: true,
        tryUpdate,
        ...(this.settings.ttlSeconds ? { ttlSeconds: this.settings.ttlSeconds } : {}),
      });
    } catch (err) {
      await finish(false);
      throw interpretStorageError(err, this.gr, name, 'update');
    }
    await finish(true);
    if (deleteAfter) {
      try {
        const gone = await this.storage.delete(key, { preconditions: { resourceVersion: stored.metadata.resourceVersion ?? '' } });
        await this.hooks.afterDelete?.(ctx, gone);
        return { object: gone, created: false };
      } catch (err) {
        // Someone changed it again (or deleted it) meanwhile; the update itself succeeded.
        if (!isStorageError(err, 'InvalidObj') && !isStorageError(err, 'NotFound')) throw interpretStorageError(err, this.gr, name, 'delete');
      }
    }
    return { object: stored, created };
  }

  async delete(ctx: RequestContext, name: string, opts: DeleteOptions, validate?: ValidateObjectFunc): Promise<DeleteResult> {
    const result = await deleteObject(this, ctx, name, opts, validate);
    return this.strategy.returnDeletedObject ? { ...result, returnDeletedObject: true } : result;
  }

  async deleteCollection(ctx: RequestContext, listOpts: ListOptions, deleteOpts: DeleteOptions, validate?: ValidateObjectFunc): Promise<KubeObject[]> {
    const list = await this.list(ctx, { ...listOpts, limit: 0, continueToken: '' });
    const deleted: KubeObject[] = [];
    // --delete-collection-workers deletes at a time (kube's DeleteCollectionWorkers; fewer than 1 is 1).
    const workers = Math.max(1, this.settings.deleteCollectionWorkers ?? 1);
    let next = 0;
    const run = async (): Promise<void> => {
      while (next < list.items.length) {
        const item = list.items[next++] as KubeObject;
        const itemCtx = item.metadata.namespace ? withNamespace(ctx, item.metadata.namespace) : ctx;
        try {
          const res = await this.delete(itemCtx, item.metadata.name ?? '', deleteOpts, validate);
          deleted.push(res.object);
        } catch (err) {
          if (!hasReason(err, 'NotFound')) throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(workers, list.items.length) }, run));
    return deleted;
  }
}

/** A context for the same request scoped to another namespace (collection deletes across namespaces). */
export function withNamespace(ctx: RequestContext, namespace: string): RequestContext {
  return { ...ctx, requestInfo: { ...ctx.requestInfo, namespace } };
}

function checkNameMatches(obj: KubeObject, name: string): void {
  if (!obj.metadata.name) obj.metadata.name = name;
  else if (obj.metadata.name !== name) {
    throw newBadRequestName(obj.metadata.name, name);
  }
}

function newBadRequestName(objName: string, urlName: string): Error {
  return newBadRequest(`the name of the object (${objName}) does not match the name on the URL (${urlName})`);
}

/** kube deletes an object during an update that removes its last finalizer after deletion began with no grace left. */
function shouldDeleteDuringUpdate(obj: KubeObject, existing: KubeObject): boolean {
  const grace = existing.metadata.deletionGracePeriodSeconds;
  return (
    Boolean(existing.metadata.deletionTimestamp) &&
    (obj.metadata.finalizers?.length ?? 0) === 0 &&
    (grace === undefined || grace === 0)
  );
}
