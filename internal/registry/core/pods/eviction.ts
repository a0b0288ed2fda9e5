/**
 * pods/eviction (kube's EvictionREST): POST a policy/v1 (or v1beta1) Eviction to delete a pod
 * only if its PodDisruptionBudget allows. A pod that is pending, finished or already being deleted
 * is deleted at once; otherwise the one budget matching the pod gives up one disruption (a
 * compare-and-swap write of its status, retried on conflict) before the pod gets the
 * DisruptionTarget condition and is deleted with the Eviction's deleteOptions. More than one
 * budget answers 500, as kube does; an exhausted budget answers 429 with the DisruptionBudget cause.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newBadRequest, newConflict } from '../../../apierrors/factories.js';
import { hasReason } from '../../../apierrors/status-error.js';
import { parseDeleteOptions } from '../../../endpoints/handlers/options.js';
import { internalContext, type RequestContext } from '../../../request/context.js';
import type { GenericStore } from '../../generic/store.js';
import { listEverything, type DeleteOptions, type RestStorage, type ValidateObjectFunc, type WriteOptions } from '../../interface.js';
import type { StorageOf } from '../serviceaccounts/bound-object.js';
import { asObject, stringAt } from '../shared/json-value.js';
import { createdStatus, ensureRequestNamespace } from './binding.js';
import { budgetsFor, disruptionBudgetError, isPodReady, takeDisruption } from './pdb-budget.js';
import { updatePodCondition } from './pod-condition.js';

/** How often a lost compare-and-swap on the budget or pod is retried (kube's EvictionsRetry steps). */
const evictionRetries = 20;

function phaseOf(pod: KubeObject): string {
  return stringAt(asObject(pod.status), 'phase');
}

/** canIgnorePDB: a pending, finished or terminating pod is deleted without consulting budgets. */
function canIgnoreBudget(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || Boolean(pod.metadata.deletionTimestamp);
}

/** shouldEnforceResourceVersion: only a live pod may become ready between check and delete. */
function shouldEnforceResourceVersion(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return !(phase === 'Succeeded' || phase === 'Failed' || pod.metadata.deletionTimestamp);
}

function withResourceVersion(opts: DeleteOptions, resourceVersion: string | undefined): DeleteOptions {
  return { ...opts, preconditions: { ...(opts.preconditions ?? {}), ...(resourceVersion ? { resourceVersion } : {}) } };
}

/** The eviction storage: create only; the pod is named by the path. */
export class EvictionStorage implements RestStorage {
  /** Other apiVersions an Eviction body may come in (the same schema). */
  readonly bodyApiVersions = ['policy/v1beta1'];

  constructor(
    private readonly pods: GenericStore,
    private readonly podStatus: RestStorage,
    private readonly storageOf: StorageOf,
  ) {}

  async create(ctx: RequestContext, eviction: KubeObject, opts: WriteOptions, validate?: ValidateObjectFunc): Promise<KubeObject> {
    const name = ctx.requestInfo.name;
    const namespace = ctx.requestInfo.namespace;
    ensureRequestNamespace(ctx, eviction);
    if (name !== (eviction.metadata.name ?? '')) throw newBadRequest('name in URL does not match name in Eviction object');
    const body = asObject(eviction.deleteOptions);
    const parsed = parseDeleteOptions(body, new URLSearchParams());
    const original: DeleteOptions = { ...parsed, dryRun: parsed.dryRun || opts.dryRun };
    await validate?.(ctx, structuredClone(eviction), undefined);
    const rvSet = Boolean(original.preconditions?.resourceVersion);

    let pod: KubeObject | undefined;
    for (let attempt = 0; ; attempt++) {
      pod = await this.pods.get(ctx, name, { resourceVersion: '' });
      if (!canIgnoreBudget(pod)) break;
      const deleteOpts = shouldEnforceResourceVersion(pod) && !rvSet ? withResourceVersion(original, pod.metadata.resourceVersion) : original;
      try {
        await this.deletePod(ctx, name, deleteOpts);
        return createdStatus();
      } catch (err) {
        if (!hasReason(err, 'Conflict') || rvSet || attempt >= evictionRetries) throw err;
      }
    }

    const budgets = budgetsFor(pod, await this.budgets(ctx, namespace));
    if (budgets.length > 1) {
      return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 } as unknown as KubeObject;
    }
    let pinResourceVersion = false;
    const budget = budgets[0];
    if (budget) {
      const status = asObject(budget.status) ?? {};
      const unhealthyAllowed =
        !isPodReady(pod) &&
        (stringAt(asObject(budget.spec), 'unhealthyPodEvictionPolicy') === 'AlwaysAllow' ||
          (Number(status.currentHealthy ?? 0) >= Number(status.desiredHealthy ?? 0) && Number(status.desiredHealthy ?? 0) > 0));
      if (unhealthyAllowed) pinResourceVersion = true;
      else await this.decrement(ctx, budget, name, original.dryRun);
    }

    const deleteOpts = pinResourceVersion ? withResourceVersion(original, pod.metadata.resourceVersion) : original;
    try {
      await this.deletePod(ctx, name, deleteOpts);
    } catch (err) {
      if (hasReason(err, 'Conflict') && pinResourceVersion && !rvSet) {
        throw disruptionBudgetError(`The disruption budget ${budget?.metadata.name ?? ''} is still being processed by the server.`, 10);
      }
      throw err;
    }
    return createdStatus();
  }

  private async budgets(ctx: RequestContext, namespace: string): Promise<KubeObject[]> {
    const storage = this.storageOf('policy', 'poddisruptionbudgets');
    if (!storage?.list) return [];
    const listCtx = internalContext({ verb: 'list', group: 'policy', resource: 'poddisruptionbudgets', namespace, signal: ctx.signal });
    return (await storage.list(listCtx, listEverything)).items;
  }

  /** Takes one disruption from budget, re-reading it whenever the compare-and-swap loses. */
  private async decrement(ctx: RequestContext, budget: KubeObject, podName: string, dryRun: boolean): Promise<void> {
    const pdbName = budget.metadata.name ?? '';
    const namespace = budget.metadata.namespace ?? '';
    const statusStorage = this.storageOf('policy', 'poddisruptionbudgets', 'status');
    const mainStorage = this.storageOf('policy', 'poddisruptionbudgets');
    let current = budget;
    for (let attempt = 0; ; attempt++) {
      const next = takeDisruption(current, podName);
      if (dryRun) return;
      if (!statusStorage?.update || !mainStorage?.get) throw new Error('poddisruptionbudgets are not served');
      const updateCtx = internalContext({ verb: 'update', group: 'policy', resource: 'poddisruptionbudgets', subresource: 'status', namespace, name: pdbName, signal: ctx.signal });
      try {
        await statusStorage.update(updateCtx, pdbName, { updatedObject: async () => structuredClone(next) }, { dryRun: false });
        return;
      } catch (err) {
        if (!hasReason(err, 'Conflict') || attempt >= evictionRetries) throw err;
      }
      const getCtx = internalContext({ verb: 'get', group: 'policy', resource: 'poddisruptionbudgets', namespace, name: pdbName, signal: ctx.signal });
      current = await mainStorage.get(getCtx, pdbName, { resourceVersion: '' });
    }
  }

  /** addConditionAndDeletePod: DisruptionTarget=True on the pod (checking the preconditions), then the delete. */
  private async deletePod(ctx: RequestContext, name: string, opts: DeleteOptions): Promise<void> {
    let deleteOpts = opts;
    if (!opts.dryRun && this.podStatus.update) {
      const pre = opts.preconditions;
      const updated = await this.podStatus.update(
        ctx,
        name,
        {
          updatedObject: async (_ctx, old) => {
            if (!old) throw newConflict({ group: '', resource: 'Pod' }, name, 'the object has been deleted');
            if (pre?.uid && pre.uid !== old.metadata.uid) {
              throw newConflict({ group: '', resource: 'Pod' }, name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${old.metadata.uid ?? ''}). The object might have been deleted and then recreated`);
            }
            if (pre?.resourceVersion && pre.resourceVersion !== old.metadata.resourceVersion) {
              throw newConflict({ group: '', resource: 'Pod' }, name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${old.metadata.resourceVersion ?? ''}). The object might have been modified`);
            }
            const pod = structuredClone(old);
            updatePodCondition(pod, { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' });
            return pod;
          },
        },
        { dryRun: false },
      );
      if (pre?.resourceVersion) deleteOpts = withResourceVersion(opts, updated.object.metadata.resourceVersion);
    }
    await this.pods.delete(ctx, name, deleteOpts);
  }
}

