/**
 * pods/binding and the legacy bindings resource (kube's BindingREST and LegacyBindingREST): POST a
 * v1 Binding to assign a pod to a node. The pod gets spec.nodeName, the binding's annotations and
 * the PodScheduled=True condition in one compare-and-swap write; a pod already assigned, being
 * deleted or still gated answers 409 Conflict on pods/binding. The answer is a Success Status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newBadRequest, newConflict, newInvalid } from '../../../apierrors/factories.js';
import { StatusError } from '../../../apierrors/status-error.js';
import type { RequestContext } from '../../../request/context.js';
import { isStorageError } from '../../../storage/errors.js';
import { fieldErrorCause, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import type { GenericStore } from '../../generic/store.js';
import { interpretStorageError } from '../../generic/storage-errors.js';
import type { RestStorage, ValidateObjectFunc, WriteOptions } from '../../interface.js';
import { arrayAt, asObject, ensureObject, stringAt, type JsonObject } from '../shared/json-value.js';
import { updatePodCondition } from './pod-condition.js';

/** kube's ValidatePodBinding. */
export function validateBinding(binding: KubeObject): FieldError[] {
  const target = asObject(binding.target);
  const errs: FieldError[] = [];
  const kind = stringAt(target, 'kind');
  if (kind !== '' && kind !== 'Node') errs.push(notSupported('target.kind', kind, ['Node', '<empty>']));
  if (stringAt(target, 'name') === '') errs.push(required('target.name', ''));
  return errs;
}

/** A successful create answered with a Status (kube's create handler gives it code 201). */
export function createdStatus(): KubeObject {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as unknown as KubeObject;
}

/** kube's EnsureObjectNamespaceMatchesRequestNamespace for a body posted to a subresource; fills in an empty namespace. */
export function ensureRequestNamespace(ctx: RequestContext, obj: KubeObject): void {
  const own = obj.metadata.namespace ?? '';
  if (own === '') obj.metadata.namespace = ctx.requestInfo.namespace;
  else if (own !== ctx.requestInfo.namespace) throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
}

/** Why the pod cannot be bound, or undefined. */
function bindRefusal(pod: KubeObject): string | undefined {
  const name = pod.metadata.name ?? '';
  if (pod.metadata.deletionTimestamp) return `pod ${name} is being deleted, cannot be assigned to a host`;
  const nodeName = stringAt(asObject(pod.spec), 'nodeName');
  if (nodeName) return `pod ${name} is already assigned to node "${nodeName}"`;
  if (arrayAt(asObject(pod.spec), 'schedulingGates').length > 0) return `pod ${name} has non-empty .spec.schedulingGates`;
  return undefined;
}

/** Binds pods through the pods store's storage (no pod strategy runs, as in kube). */
export class BindingStorage implements RestStorage {
  /** legacy: the bindings resource, which names the pod in the body rather than the path. */
  constructor(
    private readonly pods: GenericStore,
    private readonly legacy: boolean,
  ) {}

  async create(ctx: RequestContext, binding: KubeObject, opts: WriteOptions, validate?: ValidateObjectFunc): Promise<KubeObject> {
    ensureRequestNamespace(ctx, binding);
    const name = this.legacy ? (binding.metadata.name ?? '') : ctx.requestInfo.name;
    if (name !== (binding.metadata.name ?? '')) throw newBadRequest('name in URL does not match name in Binding object');
    const errs = validateBinding(binding);
    if (errs.length > 0) throw newInvalid('', 'Binding', name, errs.map(fieldErrorCause));
    await validate?.(ctx, structuredClone(binding), undefined);
    const { uid, resourceVersion, annotations } = binding.metadata;
    const nodeName = stringAt(asObject(binding.target), 'name');
    const key = this.pods.objectKey(ctx.requestInfo.namespace, name);
    const tryUpdate = (current: KubeObject): KubeObject => {
      const pod = structuredClone(current);
      const refusal = bindRefusal(pod);
      if (refusal) throw newConflict({ group: '', resource: 'pods/binding' }, name, refusal);
      ensureObject(pod as JsonObject, 'spec').nodeName = nodeName;
      pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), ...(annotations ?? {}) };
      updatePodCondition(pod, { type: 'PodScheduled', status: 'True' });
      return pod;
    };
    const preconditions = uid || resourceVersion ? { ...(uid ? { uid } : {}), ...(resourceVersion ? { resourceVersion } : {}) } : undefined;
    try {
      if (opts.dryRun) {
        const current = await this.pods.storage.get(key, { resourceVersion: '' });
        if (uid && uid !== current.metadata.uid) throw newConflict(this.pods.gr, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
        if (resourceVersion && resourceVersion !== current.metadata.resourceVersion) {
          throw newConflict(this.pods.gr, name, `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`);
        }
        tryUpdate(current);
      } else {
        await this.pods.storage.guaranteedUpdate(key, { ignoreNotFound: false, ...(preconditions ? { preconditions } : {}), tryUpdate });
      }
    } catch (err) {
      if (err instanceof StatusError) throw err;
      if (isStorageError(err)) throw interpretStorageError(err, this.pods.gr, name, 'update');
      throw err;
    }
    return createdStatus();
  }
}
