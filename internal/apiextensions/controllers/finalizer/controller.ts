/**
 * kube's CRDFinalizer: for a CRD being deleted that still carries the
 * customresourcecleanup.apiextensions.k8s.io finalizer, records Terminating
 * "InstanceDeletionInProgress", deletes every instance of its resource (when it was ever
 * established), and then removes the finalizer so the CRD itself goes. A failure is recorded in the
 * Terminating condition and retried.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { customResourceCleanupFinalizer } from '../../../registry/apiextensions/customresourcedefinitions/delete.js';
import type { RestStorage } from '../../../registry/interface.js';
import { semanticEqual } from '../../../registry/core/shared/semantic-equal.js';
import { isConditionTrue, Established, removeCondition, setCondition, Terminating, type CrdCondition } from '../conditions.js';
import type { CrdControllerDeps, RunningController } from '../interface.js';
import { runCrdQueue } from '../run-queue.js';
import { defaultDeletionPolling, deleteInstances, type DeletionPolling } from './delete-instances.js';


/** Built-in resources whose storage overlaps where such a CRD's instances would be: never deleted. */
const overlappingBuiltIns = new Set(['apiservices.apiregistration.k8s.io', 'customresourcedefinitions.apiextensions.k8s.io']);

/** What the finalizer needs besides the common dependencies. */
export interface FinalizerOptions {
  /** The storage of a served resource (the installer's storageOf), kept while its CRD terminates. */
  readonly instanceStorage: (group: string, plural: string) => RestStorage | undefined;
  readonly polling?: DeletionPolling;
  readonly signal?: AbortSignal;
}

const terminating = (crd: KubeObject): boolean =>
  Boolean(crd.metadata.deletionTimestamp) && (crd.metadata.finalizers ?? []).includes(customResourceCleanupFinalizer);

const spec = (crd: KubeObject) => (crd.spec ?? {}) as { group?: string; names?: { plural?: string } };
const acceptedPlural = (crd: KubeObject): string =>
  String((crd.status as { acceptedNames?: { plural?: string } } | undefined)?.acceptedNames?.plural || spec(crd).names?.plural || '');

/** Sets cond on a terminating CRD, or undefined when it is no longer ours to finalize. */
const withCondition = (cond: Omit<CrdCondition, 'lastTransitionTime'>) => (crd: KubeObject): KubeObject | undefined => {
  if (!terminating(crd)) return undefined;
  setCondition(crd, cond);
  return crd;
};

/** A copy without what our own writes change, to tell them from anyone else's. */
function withoutOwnChanges(crd: KubeObject): KubeObject {
  const copy = structuredClone(crd);
  delete copy.metadata.resourceVersion;
  delete copy.metadata.managedFields;
  removeCondition(copy, Terminating);
  return copy;
}

/** Starts the CRD finalizer. */
export function startFinalizerController(deps: CrdControllerDeps, options: FinalizerOptions): RunningController {
  const sync = async (name: string): Promise<void> => {
    const cached = deps.informer.get(name);
    if (!cached || !terminating(cached)) return;
    const marked = await deps.updateStatus(
      name,
      withCondition({ type: Terminating, status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' }),
    );
    if (!marked || !terminating(marked.object)) return;
    const crd = marked.object;
    const group = spec(crd).group ?? '';
    const plural = acceptedPlural(crd);
    let cond: Omit<CrdCondition, 'lastTransitionTime'>;
    if (overlappingBuiltIns.has(`${spec(crd).names?.plural ?? ''}.${group}`)) {
      cond = { type: Terminating, status: 'False', reason: 'OverlappingBuiltInResource', message: 'instances overlap with built-in resources in storage' };
    } else if (isConditionTrue(crd, Established)) {
      const outcome = await deleteInstances(group, plural, options.instanceStorage(group, plural), options.polling ?? defaultDeletionPolling, options.signal);
      cond = outcome.condition;
      if (outcome.error) {
        try {
          await deps.updateStatus(name, withCondition(cond));
        } catch (err) {
          deps.log.warn(`crd-finalizer: ${name}: ${(err as Error).message}`);
        }
        throw outcome.error;
      }
    } else {
      cond = { type: Terminating, status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };
    }
    await deps.updateStatus(name, (current) => {
      if (!withCondition(cond)(current)) return undefined;
      current.metadata.finalizers = (current.metadata.finalizers ?? []).filter((f) => f !== customResourceCleanupFinalizer);
      return current;
    });
  };
  const queue = runCrdQueue(
    'crd-finalizer',
    deps,
    sync,
    {
      added: terminating,
      updated: (crd, old) => {
        if (!terminating(crd)) return false;
        if (crd.metadata.resourceVersion === old.metadata.resourceVersion) return true;
        // Our own condition updates would otherwise requeue us in a loop; failures retry by themselves.
        return !semanticEqual(withoutOwnChanges(crd), withoutOwnChanges(old));
      },
    },
  );
  return { stop: () => queue.stop() };
}
