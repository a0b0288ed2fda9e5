/**
 * The PodDisruptionBudget side of an eviction (kube's EvictionREST.checkAndDecrement and
 * getPodDisruptionBudgets): which budgets guard a pod, and taking one disruption from a budget.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newForbidden } from '../../../apierrors/factories.js';
import { StatusError } from '../../../apierrors/status-error.js';
import { labelSelectorAsSelector, type LabelSelectorObject } from '../../../selectors/label-selector-object.js';
import { arrayAt, asObject, ensureObject, numberAt, objectAt, stringAt, type JsonObject } from '../shared/json-value.js';
import { nowRFC3339 } from './pod-condition.js';

/** kube's message for an eviction a budget refuses. */
export const evictionBlockedMessage = "Cannot evict pod as it would violate the pod's disruption budget.";

/** How many unconfirmed evictions a budget may record (kube's MaxDisruptedPodSize). */
export const maxDisruptedPods = 2000;

/** 429 TooManyRequests with the DisruptionBudget cause; retryAfterSeconds 0 is left out, as kube's NewTooManyRequests does. */
export function disruptionBudgetError(causeMessage: string, retryAfterSeconds: number): StatusError {
  return new StatusError(429, 'TooManyRequests', evictionBlockedMessage, {
    ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
    causes: [{ reason: 'DisruptionBudget', message: causeMessage }],
  });
}

/** The budgets of pod's namespace whose (non-empty, valid) selector matches the pod. */
export function budgetsFor(pod: KubeObject, budgets: Iterable<KubeObject>): KubeObject[] {
  const out: KubeObject[] = [];
  for (const pdb of budgets) {
    if (pdb.metadata.namespace !== pod.metadata.namespace) continue;
    let matches = false;
    try {
      const selector = labelSelectorAsSelector(asObject(pdb.spec)?.selector as LabelSelectorObject | undefined);
      // A budget with an empty selector guards nothing here, as in kube's eviction.
      matches = !selector.empty() && selector.matches(pod.metadata.labels);
    } catch {
      matches = false;
    }
    if (matches) out.push(pdb);
  }
  return out;
}

/** kube's podutil.IsPodReady: condition Ready is True. */
export function isPodReady(pod: KubeObject): boolean {
  return arrayAt(asObject(pod.status), 'conditions').some((c) => stringAt(asObject(c), 'type') === 'Ready' && stringAt(asObject(c), 'status') === 'True');
}

/** apimeta.SetStatusCondition for the DisruptionAllowed condition once no disruption is left. */
function setInsufficientPods(status: JsonObject): void {
  const conditions = arrayAt(status, 'conditions').map((c) => asObject(c) ?? {});
  const observedGeneration = numberAt(status, 'observedGeneration') ?? 0;
  const i = conditions.findIndex((c) => stringAt(c, 'type') === 'DisruptionAllowed');
  const prev = i >= 0 ? conditions[i] : undefined;
  const next: JsonObject = {
    type: 'DisruptionAllowed',
    status: 'False',
    observedGeneration,
    lastTransitionTime: prev && stringAt(prev, 'status') === 'False' && prev.lastTransitionTime ? prev.lastTransitionTime : nowRFC3339(),
    reason: 'InsufficientPods',
    message: prev ? stringAt(prev, 'message') : '',
  };
  if (i >= 0) conditions[i] = next;
  else conditions.push(next);
  status.conditions = conditions;
}

/**
 * Checks that pdb allows one more disruption and returns the budget to store (a copy): one
 * disruption fewer and podName recorded in status.disruptedPods. Throws kube's errors: 429 while
 * the budget's status lags its spec or allows nothing, 403 for a negative or overfull budget.
 */
export function takeDisruption(pdb: KubeObject, podName: string): KubeObject {
  const name = pdb.metadata.name ?? '';
  const status = objectAt(pdb as JsonObject, 'status') ?? {};
  if ((numberAt(status, 'observedGeneration') ?? 0) < (pdb.metadata.generation ?? 0)) {
    throw disruptionBudgetError(`The disruption budget ${name} is still being processed by the server.`, 10);
  }
  const allowed = numberAt(status, 'disruptionsAllowed') ?? 0;
  const gr = { group: 'policy', resource: 'poddisruptionbudget' };
  if (allowed < 0) throw newForbidden(gr, name, 'pdb disruptions allowed is negative');
  if (Object.keys(objectAt(status, 'disruptedPods') ?? {}).length > maxDisruptedPods) {
    throw newForbidden(gr, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (allowed === 0) {
    throw disruptionBudgetError(
      `The disruption budget ${name} needs ${numberAt(status, 'desiredHealthy') ?? 0} healthy pods and has ${numberAt(status, 'currentHealthy') ?? 0} currently`,
      0,
    );
  }
  const next = structuredClone(pdb);
  const nextStatus = ensureObject(next as JsonObject, 'status');
  nextStatus.disruptionsAllowed = allowed - 1;
  if (allowed - 1 === 0) setInsufficientPods(nextStatus);
  ensureObject(nextStatus, 'disruptedPods')[podName] = nowRFC3339();
  return next;
}
