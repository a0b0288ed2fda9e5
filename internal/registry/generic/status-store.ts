/**
 * The status subresource (<resource>/status): reads the whole object, and writes only what the
 * StatusStrategy lets through, never creating an object.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { RequestContext } from '../../request/context.js';
import type { FieldError } from '../../validation/field-error.js';
import type { GetOptions, RestStorage, UpdatedObjectInfo, UpdateResult, ValidateObjectFunc, WriteOptions } from '../interface.js';
import type { GenericStore } from './store.js';
import type { StatusStrategy } from './strategy.js';
import { setOwnKey } from '../../collections/own-key.js';

/** A status strategy that takes status from the new object and everything else from the old one. */
export const defaultStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    const status = obj.status;
    for (const key of Object.keys(obj)) if (key !== 'status' && key !== 'metadata') delete obj[key];
    for (const [key, value] of Object.entries(old)) if (key !== 'status' && key !== 'metadata') setOwnKey(obj, key, structuredClone(value));
    if (status === undefined) delete obj.status;
    resetMetadataForStatus(obj, old);
  },
  validateUpdate(): FieldError[] {
    return [];
  },
};

/** kube's ResetObjectMetaForStatus: a status write keeps labels, annotations, finalizers and owners as they were. */
export function resetMetadataForStatus(obj: KubeObject, old: KubeObject): void {
  const keep = ['labels', 'annotations', 'finalizers', 'ownerReferences', 'deletionTimestamp', 'generation'] as const;
  for (const f of keep) {
    const v = old.metadata[f];
    if (v === undefined) delete obj.metadata[f];
    else (obj.metadata as Record<string, unknown>)[f] = structuredClone(v);
  }
}

/** RestStorage for <resource>/status over the resource's generic store. */
export class StatusStore implements RestStorage {
  constructor(
    private readonly parent: GenericStore,
    private readonly strategy: StatusStrategy = defaultStatusStrategy,
  ) {}

  async get(ctx: RequestContext, name: string, opts: GetOptions): Promise<KubeObject> {
    return await this.parent.get(ctx, name, opts);
  }

  async update(
    ctx: RequestContext,
    name: string,
    info: UpdatedObjectInfo,
    opts: WriteOptions & { forceAllowCreate?: boolean },
    validate?: ValidateObjectFunc,
  ): Promise<UpdateResult> {
    return await this.parent.updateWith(ctx, name, info, { ...opts, forceAllowCreate: false }, validate, this.strategy);
  }
}
