/**
 * A quota's observed usage (kube's quota.CalculateUsage): for each evaluator that tracks one of the
 * quota's hard resources, the sum of what the objects of the quota's namespace that are in its
 * scopes use, masked to the resources the quota limits. Objects come from informers.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { QuotaEvaluator, QuotaObject } from '../../quota/interface.js';
import { add, count, mask, type ResourceList } from '../../quota/resource-list.js';
import { scopeSelectorsOf } from '../../quota/scopes.js';
import type { Quantity } from '../../validation/quantity.js';

/** The objects of one resource in one namespace, or undefined when the resource cannot be listed. */
export type NamespaceLister = (evaluator: QuotaEvaluator, namespace: string) => Promise<Iterable<KubeObject> | undefined>;

/** The usage of quota's hard resources that evaluators can measure. */
export async function calculateUsage(quota: QuotaObject, evaluators: Iterable<QuotaEvaluator>, list: NamespaceLister): Promise<ResourceList> {
  const hardNames = Object.keys(quota.spec?.hard ?? {});
  const all = [...evaluators];
  const potential = new Set(all.flatMap((e) => e.matchingResources(hardNames)));
  let matched = hardNames.filter((n) => potential.has(n));
  const namespace = quota.metadata.namespace ?? '';
  const selectors = scopeSelectorsOf(quota);
  let usage: ResourceList = new Map();
  for (const e of all) {
    const names = e.matchingResources(matched);
    if (names.length === 0) continue;
    const items = await list(e, namespace);
    if (!items) {
      const skip = new Set(names);
      matched = matched.filter((n) => !skip.has(n));
      continue;
    }
    let used: ResourceList = new Map<string, Quantity>(names.map((n) => [n, count(0)]));
    for (const obj of items) {
      if (selectors.every((s) => e.matchesScope(s, obj))) used = add(used, e.usage(obj));
    }
    usage = add(usage, used);
  }
  return mask(usage, matched);
}
