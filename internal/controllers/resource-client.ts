/**
 * An in-process client of one resource's RestStorage, for loops inside the API server (bootstrap
 * reconciliation, controllers): get, list, create, update and delete as the server's own identity
 * (system:apiserver, in system:masters), each with the request context such a call would carry.
 * Errors are the stores' StatusErrors.
 */
import type { KubeObject } from '../../api/meta/types.js';
import { newNotFound } from '../apierrors/factories.js';
import { listEverything, type DeleteOptions, type RestStorage } from '../registry/interface.js';
import { internalContext } from '../request/context.js';

/** Calls on one resource. */
export class ResourceClient {
  constructor(
    private readonly storage: RestStorage,
    private readonly group: string,
    private readonly resource: string,
  ) {}

  private ctx(verb: string, namespace = '', name = '') {
    return internalContext({ verb, group: this.group, resource: this.resource, namespace, name });
  }

  /** Reads one object (a consistent read from storage). */
  async get(name: string, namespace = ''): Promise<KubeObject> {
    if (!this.storage.get) throw new Error(`${this.resource} storage cannot get`);
    return await this.storage.get(this.ctx('get', namespace, name), name, { resourceVersion: '' });
  }

  /** Lists every object (of every namespace when namespace is ''). */
  async list(namespace = ''): Promise<KubeObject[]> {
    if (!this.storage.list) throw new Error(`${this.resource} storage cannot list`);
    const result = await this.storage.list(this.ctx('list', namespace), listEverything);
    return result.items;
  }

  /** Creates obj (in its metadata.namespace); returns the stored object. */
  async create(obj: KubeObject): Promise<KubeObject> {
    if (!this.storage.create) throw new Error(`${this.resource} storage cannot create`);
    return await this.storage.create(this.ctx('create', obj.metadata.namespace ?? ''), structuredClone(obj), { dryRun: false });
  }

  /**
   * Updates an existing object from its current stored state: change gets a copy of it and returns
   * the new object (or the copy unchanged). Retried by the store when the write loses a race;
   * NotFound when the object does not exist.
   */
  async update(name: string, namespace: string, change: (current: KubeObject) => KubeObject): Promise<KubeObject> {
    if (!this.storage.update) throw new Error(`${this.resource} storage cannot update`);
    const res = await this.storage.update(
      this.ctx('update', namespace, name),
      name,
      {
        updatedObject: async (_ctx, old) => {
          if (!old) throw newNotFound({ group: this.group, resource: this.resource }, name);
          return change(structuredClone(old));
        },
      },
      { dryRun: false },
    );
    return res.object;
  }

  /** Deletes an object, with optional preconditions. */
  async delete(name: string, namespace = '', preconditions?: DeleteOptions['preconditions']): Promise<void> {
    if (!this.storage.delete) throw new Error(`${this.resource} storage cannot delete`);
    await this.storage.delete(this.ctx('delete', namespace, name), name, { dryRun: false, ...(preconditions ? { preconditions } : {}) });
  }
}
