/**
 * The collector's writes, made in-process through the resources' stores as the server's own
 * identity (kube's GC writes through the API with its service account): deletes with uid and
 * resourceVersion preconditions, read-modify-write updates that refuse another object of the same
 * name, and the Warning events it records.
 */
import { randomBytes } from 'node:crypto';
import type { KubeObject, OwnerReference } from '../../../api/meta/types.js';
import { newConflict, newNotFound } from '../../apierrors/factories.js';
import type { RestStorage } from '../../registry/interface.js';
import { internalContext } from '../../request/context.js';
import type { StorageLookup } from '../shared-informers.js';
import { describeIdentity, ownerIdentity, type GCResource, type ObjectIdentity } from './interface.js';

/** Writes of the collector. */
export class GCOperations {
  constructor(
    private readonly storageOf: StorageLookup,
    private readonly log: (level: number, message: string) => void,
    private readonly component = 'garbage-collector-controller',
  ) {}

  /**
   * kube's reportInvalidNamespaceOwnerRef: a Warning OwnerRefInvalidNamespace event on the
   * dependent whose reference names an owner that cannot be in its namespace. Never blocks.
   */
  reportInvalidOwnerNamespace(dependent: ObjectIdentity, ref: OwnerReference): void {
    const message = `ownerRef ${describeIdentity(ownerIdentity(ref, dependent.namespace))} does not exist in namespace ${JSON.stringify(dependent.namespace)}`;
    this.log(2, `item ${describeIdentity(dependent)} references an owner but does not match namespaces`);
    void this.warn(dependent, 'OwnerRefInvalidNamespace', message).catch((err: unknown) => this.log(2, `recording event failed: ${(err as Error).message}`));
  }

  private storage(resource: GCResource): RestStorage {
    const s = this.storageOf(resource.group, resource.resource);
    if (!s) throw new Error(`${resource.resource}.${resource.group} is not served`);
    return s;
  }

  private ctx(verb: string, resource: GCResource, id: ObjectIdentity) {
    return internalContext({ verb, group: resource.group, resource: resource.resource, namespace: resource.namespaced ? id.namespace : '', name: id.name });
  }

  /** Deletes the object id names, if it is still that object at resourceVersion; Conflict otherwise. */
  async delete(resource: GCResource, id: ObjectIdentity, resourceVersion: string, policy: 'Foreground' | 'Background' | 'Orphan'): Promise<void> {
    const s = this.storage(resource);
    if (!s.delete) throw new Error(`${resource.resource} cannot be deleted`);
    await s.delete(this.ctx('delete', resource, id), id.name, {
      dryRun: false,
      preconditions: { uid: id.uid, ...(resourceVersion ? { resourceVersion } : {}) },
      propagationPolicy: policy,
    });
  }

  /**
   * Changes the object id names from its current stored state (retried by the store on races);
   * NotFound when it is gone or another object now has its name. change returns its input when
   * nothing is to change (nothing is written then).
   */
  async update(resource: GCResource, id: ObjectIdentity, change: (current: KubeObject) => KubeObject): Promise<void> {
    const s = this.storage(resource);
    if (!s.update) throw new Error(`${resource.resource} cannot be updated`);
    const gr = { group: resource.group, resource: resource.resource };
    await s.update(
      this.ctx('update', resource, id),
      id.name,
      {
        updatedObject: async (_ctx, old) => {
          if (!old || old.metadata.uid !== id.uid) throw newNotFound(gr, id.name);
          return change(structuredClone(old));
        },
      },
      { dryRun: false },
    );
  }

  /** Removes finalizer from the object id names. */
  async removeFinalizer(resource: GCResource, id: ObjectIdentity, finalizer: string): Promise<void> {
    await this.update(resource, id, (obj) => {
      const finalizers = obj.metadata.finalizers ?? [];
      if (!finalizers.includes(finalizer)) return obj;
      obj.metadata.finalizers = finalizers.filter((f) => f !== finalizer);
      return obj;
    });
  }

  /** Records a Warning event about id, as client-go's recorder does (cluster objects: in default). */
  async warn(id: ObjectIdentity, reason: string, message: string): Promise<void> {
    const events = this.storageOf('', 'events');
    if (!events?.create) return;
    const namespace = id.namespace || 'default';
    const now = new Date();
    const time = now.toISOString().replace(/\.\d+Z$/, 'Z');
    const name = `${id.name}.${(BigInt(now.getTime()) * 1_000_000n + BigInt(randomBytes(2).readUInt16BE())).toString(16)}`;
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: { kind: id.kind, apiVersion: id.apiVersion, name: id.name, uid: id.uid, ...(id.namespace ? { namespace: id.namespace } : {}) },
      reason,
      message,
      source: { component: this.component },
      firstTimestamp: time,
      lastTimestamp: time,
      count: 1,
      type: 'Warning',
      reportingComponent: this.component,
      reportingInstance: '',
    };
    await events.create(internalContext({ verb: 'create', resource: 'events', namespace }), event, { dryRun: false });
  }
}

/** A 409 for a write that lost to a newer state (the item is retried). */
export function staleState(resource: GCResource, name: string): Error {
  return newConflict({ group: resource.group, resource: resource.resource }, name, 'the object has changed');
}
