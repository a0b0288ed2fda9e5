/**
 * One request against the quotas of its namespace (kube's resourcequota CheckRequest): which quotas
 * cover the object, whether the object states what they constrain, whether the new usage stays
 * within every quota, and the usage each would have if the request succeeds. Throws the StatusError
 * kube answers with; never changes its inputs.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { StatusError } from '../../../apierrors/status-error.js';
import type { QuotaEvaluator, ScopeSelectorRequirement } from '../../../quota/interface.js';
import {
  add,
  lessThanOrEqual,
  mask,
  negativeNames,
  prettyPrint,
  prettyPrintNames,
  removeZeros,
  subtractNonNegative,
  type ResourceList,
} from '../../../quota/resource-list.js';
import { matchingScopes, quotaMatches, scopeSelectorsOf, uncoveredScopes } from '../../../quota/scopes.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes } from '../../interface.js';
import type { LimitedResource, WorkingQuota } from './interface.js';

/** The names of consumed resources that a limited resource's matchContains catches (limitedByDefault). */
function limitedByDefault(usage: ResourceList, limited: readonly LimitedResource[]): string[] {
  const out: string[] = [];
  for (const l of limited) {
    for (const [name, q] of usage) {
      if (q.sign() === 1 && l.matchContains.some((m) => name.includes(m))) out.push(name);
    }
  }
  return out;
}

/** Go's %v of a []ScopedResourceSelectorRequirement. */
function formatScopes(scopes: readonly ScopeSelectorRequirement[]): string {
  return `[${scopes.map((s) => `{${s.scopeName} ${s.operator} [${(s.values ?? []).join(' ')}]}`).join(' ')}]`;
}

/**
 * Checks attrs against quotas; returns the quotas with the usage they would have (the same array
 * when nothing changes). limited is the configuration's limitedResources.
 */
export function checkRequest(
  quotas: readonly WorkingQuota[],
  attrs: AdmissionAttributes,
  evaluator: QuotaEvaluator,
  limited: readonly LimitedResource[],
): readonly WorkingQuota[] {
  if (!evaluator.handles(attrs)) return quotas;
  const obj = attrs.object as KubeObject;

  const limitedScopes: ScopeSelectorRequirement[] = [];
  for (const l of limited) limitedScopes.push(...matchingScopes(evaluator, obj, l.matchScopes));

  const ownLimited = limited.filter((l) => l.apiGroup === attrs.group && l.resource === attrs.resource);
  const limitedNames = new Set(ownLimited.length > 0 ? limitedByDefault(evaluator.usage(obj), ownLimited) : []);

  const interesting: number[] = [];
  const restricted = new Set<string>();
  const restrictedScopes: ScopeSelectorRequirement[] = [];
  quotas.forEach((q, i) => {
    restrictedScopes.push(...matchingScopes(evaluator, obj, scopeSelectorsOf(q.object)));
    if (!quotaMatches(evaluator, q.object, obj)) return;
    const name = q.object.metadata.name ?? '';
    const restrictedResources = evaluator.matchingResources([...q.hard.keys()]);
    const why = evaluator.constraints(restrictedResources, obj);
    if (why) throw admissionForbidden(attrs, `failed quota: ${name}: ${why}`);
    if (!restrictedResources.every((r) => !q.hard.has(r) || q.used.has(r))) {
      throw admissionForbidden(attrs, `status unknown for quota: ${name}, resources: ${prettyPrintNames(restrictedResources)}`);
    }
    interesting.push(i);
    for (const r of restrictedResources) restricted.add(r);
  });

  const inputUsage = evaluator.usage(obj);
  const negative = negativeNames(inputUsage);
  if (negative.length > 0) throw admissionForbidden(attrs, `quota usage is negative for resource(s): ${prettyPrintNames(negative)}`);

  const delta = new Map<number, ResourceList>(interesting.map((i) => [i, inputUsage]));
  let deltaWhenNone: ResourceList = attrs.operation === 'CREATE' && interesting.length === 0 ? inputUsage : new Map();

  if (attrs.operation === 'UPDATE') {
    const prev = attrs.oldObject;
    if (!prev) throw admissionForbidden(attrs, 'unable to get previous usage since prior version of object was not found');
    // Charge only the difference unless this may be a create-on-update (no stored version).
    if (prev.metadata.resourceVersion) {
      const d = subtractNonNegative(inputUsage, evaluator.usage(prev));
      if (interesting.length === 0) deltaWhenNone = d;
      for (const i of interesting) if (quotaMatches(evaluator, (quotas[i] as WorkingQuota).object, prev)) delta.set(i, d);
    } else if (interesting.length === 0) {
      deltaWhenNone = inputUsage;
    }
  }

  for (const [i, d] of delta) {
    const nz = removeZeros(d);
    if (nz.size === 0) delta.delete(i);
    else delta.set(i, nz);
  }
  if (interesting.length !== 0) {
    if (delta.size === 0) return quotas;
  } else if (removeZeros(deltaWhenNone).size === 0) {
    return quotas;
  }

  const uncovered = [...limitedNames].filter((n) => !restricted.has(n));
  if (uncovered.length > 0) throw admissionForbidden(attrs, `insufficient quota to consume: ${uncovered.sort().join(',')}`);

  const uncoveredScopeList = uncoveredScopes(evaluator, limitedScopes, restrictedScopes);
  if (uncoveredScopeList.length > 0) {
    // kube returns a plain error here, which the API server answers as an unknown 500.
    throw new StatusError(500, '', `insufficient quota to match these scopes: ${formatScopes(uncoveredScopeList)}`);
  }

  if (interesting.length === 0) return quotas;

  const out = quotas.slice();
  for (const i of interesting) {
    const d = delta.get(i);
    if (!d) continue;
    const q = quotas[i] as WorkingQuota;
    const requested = mask(d, q.hard.keys());
    const newUsage = add(q.used, requested);
    if (attrs.subresource !== 'status') {
      const { ok, exceeded } = lessThanOrEqual(mask(newUsage, requested.keys()), q.hard);
      if (!ok) {
        throw admissionForbidden(
          attrs,
          `exceeded quota: ${q.object.metadata.name ?? ''}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(
            mask(q.used, exceeded),
          )}, limited: ${prettyPrint(mask(q.hard, exceeded))}`,
        );
      }
    }
    out[i] = { object: q.object, hard: q.hard, used: newUsage };
  }
  return out;
}
