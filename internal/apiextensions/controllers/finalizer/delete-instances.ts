/**
 * Deleting every instance of a terminating CRD's resource (kube's CRDFinalizer.deleteInstances):
 * one delete-collection per namespace that has instances, straight through the resource's storage
 * (no admission, as kube's finalizer goes to the storage), then a poll until none is left. The
 * outcome is the Terminating condition to record.
 */
import { listEverything, type RestStorage } from '../../../registry/interface.js';
import { internalContext } from '../../../request/context.js';
import { aggregateMessages } from '../../../validation/field-error.js';
import { Terminating, type CrdCondition } from '../conditions.js';

/** The Terminating condition after an attempt, and the error that makes it a failure. */
export interface DeletionOutcome {
  readonly condition: Omit<CrdCondition, 'lastTransitionTime'>;
  readonly error?: Error;
}

/** How the wait for the last instances to go is paced (kube: every 5 s, for at most a minute). */
export interface DeletionPolling {
  readonly intervalMs: number;
  readonly timeoutMs: number;
}

/** kube's pacing. */
export const defaultDeletionPolling: DeletionPolling = { intervalMs: 5000, timeoutMs: 60_000 };

const failed = (reason: string, message: string, error: Error): DeletionOutcome => ({
  condition: { type: Terminating, status: 'True', reason, message },
  error,
});

/** Deletes the instances of group/plural held in storage (undefined: the resource is not served). */
export async function deleteInstances(
  group: string,
  plural: string,
  storage: RestStorage | undefined,
  polling: DeletionPolling = defaultDeletionPolling,
  signal?: AbortSignal,
): Promise<DeletionOutcome> {
  if (!storage?.list || !storage.deleteCollection) {
    const err = new Error(`unable to find a custom resource client for ${plural}.${group}: the resource is not served`);
    return failed('InstanceDeletionFailed', `could not list instances: ${err.message}`, err);
  }
  const ctx = (verb: string, namespace = '') => internalContext({ verb, group, resource: plural, namespace });
  const list = async () => (await (storage.list as NonNullable<RestStorage['list']>)(ctx('list'), listEverything)).items;
  let items;
  try {
    items = await list();
  } catch (err) {
    return failed('InstanceDeletionFailed', `could not list instances: ${(err as Error).message}`, err as Error);
  }
  const namespaces = new Set(items.map((i) => i.metadata.namespace ?? ''));
  const errors: Error[] = [];
  for (const ns of namespaces) {
    try {
      await storage.deleteCollection(ctx('deletecollection', ns), listEverything, { dryRun: false });
    } catch (err) {
      errors.push(err as Error);
    }
  }
  if (errors.length > 0) {
    const err = new Error(aggregateMessages(errors.map((e) => e.message)));
    return failed('InstanceDeletionFailed', `could not issue all deletes: ${err.message}`, err);
  }
  // Instances with finalizers of their own stay until those are removed.
  const deadline = Date.now() + polling.timeoutMs;
  for (;;) {
    let left: number;
    try {
      left = (await list()).length;
    } catch (err) {
      return failed('InstanceDeletionCheck', `could not confirm zero CustomResources remaining: ${(err as Error).message}`, err as Error);
    }
    if (left === 0) break;
    if (Date.now() + polling.intervalMs > deadline || signal?.aborted) {
      const err = new Error('timed out waiting for the condition');
      return failed('InstanceDeletionCheck', `could not confirm zero CustomResources remaining: ${err.message}`, err);
    }
    await new Promise((r) => setTimeout(r, polling.intervalMs).unref());
  }
  return { condition: { type: Terminating, status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' } };
}
