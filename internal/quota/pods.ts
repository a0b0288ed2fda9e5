/**
 * The pods quota evaluator (kube's pkg/quota/v1/evaluator/core/pods.go): pods, count/pods,
 * cpu/memory/ephemeral-storage requests (also under their bare names) and limits, hugepages and
 * extended resources (requests.<name> only); the scopes Terminating, NotTerminating, BestEffort,
 * NotBestEffort, PriorityClass and CrossNamespacePodAffinity. Pods that finished (Succeeded,
 * Failed) or outlived their deletion grace period are counted in count/pods only.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { AdmissionAttributes } from '../admission/interface.js';
import type { Quantity } from '../validation/quantity.js';
import type { QuotaEvaluator, ScopeSelectorRequirement } from './interface.js';
import { allContainers, podLimits, podRequests, podSpec } from './pod-resources.js';
import { add, count, intersection, resourceListFromJSON, type ResourceList } from './resource-list.js';
import { matchesScopeValue } from './scopes.js';

const podResources = [
  'count/pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
];
const hugePagesPrefix = 'hugepages-';
const requestsHugePagesPrefix = 'requests.hugepages-';
const requestsPrefix = 'requests.';

/** Resources that, when quota'd, every container must state (kube keeps this old rule for these only). */
const validationSet = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** IsNativeResource: no domain, or one under kubernetes.io/. */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

const qualifiedNameRE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const dnsSubdomainRE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** IsQualifiedName: [prefix/]name. */
function isQualifiedName(value: string): boolean {
  const parts = value.split('/');
  if (parts.length > 2) return false;
  const name = parts.length === 2 ? (parts[1] as string) : (parts[0] as string);
  if (parts.length === 2) {
    const prefix = parts[0] as string;
    if (prefix.length === 0 || prefix.length > 253 || !dnsSubdomainRE.test(prefix)) return false;
  }
  return name.length > 0 && name.length <= 63 && qualifiedNameRE.test(name);
}

/** IsExtendedResourceName: not native, not requests.*, and a qualified name once prefixed with requests. */
function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(requestsPrefix)) return false;
  return isQualifiedName(`${requestsPrefix}${name}`);
}

function isExtendedResourceNameForQuota(name: string): boolean {
  return !isNativeResource(name) && name.startsWith(requestsPrefix);
}

/** podComputeUsageHelper: the quota names a set of requests and limits charge. */
function computeUsage(requests: ResourceList, limits: ResourceList): Map<string, Quantity> {
  const out = new Map<string, Quantity>([['pods', count(1)]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim) out.set(`limits.${r}`, lim);
  }
  for (const [name, q] of requests) {
    if (name.startsWith(hugePagesPrefix)) {
      out.set(name, q);
      out.set(`${requestsPrefix}${name}`, q);
    }
    if (isExtendedResourceName(name)) out.set(`${requestsPrefix}${name}`, q);
  }
  return out;
}

/** QuotaV1Pod: whether a pod is still charged for compute (not finished, not stuck past its grace period). */
export function quotaV1Pod(pod: KubeObject, now: number = Date.now()): boolean {
  const phase = (pod as { status?: { phase?: string } }).status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const { deletionTimestamp, deletionGracePeriodSeconds } = pod.metadata;
  if (deletionTimestamp && deletionGracePeriodSeconds !== undefined && deletionGracePeriodSeconds !== null) {
    if (now > Date.parse(deletionTimestamp) + deletionGracePeriodSeconds * 1000) return false;
  }
  return true;
}

/** GetPodQOS == BestEffort: no container requests or limits any cpu or memory. */
export function isBestEffort(pod: KubeObject): boolean {
  for (const c of allContainers(pod)) {
    for (const list of [c.resources?.requests, c.resources?.limits]) {
      for (const [name, q] of resourceListFromJSON(list)) {
        if ((name === 'cpu' || name === 'memory') && !q.isZero()) return false;
      }
    }
  }
  return true;
}

function isTerminating(pod: KubeObject): boolean {
  const ads = podSpec(pod).activeDeadlineSeconds;
  return typeof ads === 'number' && ads >= 0;
}

type Term = { namespaces?: unknown[]; namespaceSelector?: unknown };
function crossNamespaceTerms(terms: unknown, weighted: boolean): boolean {
  if (!Array.isArray(terms)) return false;
  return terms.some((t) => {
    const term = (weighted ? (t as { podAffinityTerm?: Term }).podAffinityTerm : t) as Term | undefined;
    return Boolean(term && ((term.namespaces?.length ?? 0) > 0 || (term.namespaceSelector !== undefined && term.namespaceSelector !== null)));
  });
}

/** Whether any pod (anti-)affinity term names namespaces or a namespace selector. */
export function usesCrossNamespacePodAffinity(pod: KubeObject): boolean {
  const affinity = podSpec(pod).affinity as Record<string, Record<string, unknown> | undefined> | undefined;
  if (!affinity) return false;
  for (const a of [affinity.podAffinity, affinity.podAntiAffinity]) {
    if (!a) continue;
    if (crossNamespaceTerms(a.requiredDuringSchedulingIgnoredDuringExecution, false)) return true;
    if (crossNamespaceTerms(a.preferredDuringSchedulingIgnoredDuringExecution, true)) return true;
  }
  return false;
}

/** The pods evaluator; now is the clock (tests pass their own). */
export function newPodEvaluator(now: () => number = Date.now): QuotaEvaluator {
  return {
    group: '',
    resource: 'pods',
    scoped: true,
    // A resize (pods/resize) changes what the pod asks for, so it is charged by its growth.
    handles: (attrs: AdmissionAttributes) => (attrs.subresource === '' ? attrs.operation === 'CREATE' : attrs.subresource === 'resize' && attrs.operation === 'UPDATE'),
    matchingResources(input) {
      const out = intersection(input, podResources);
      for (const r of input) {
        if (r.startsWith(hugePagesPrefix) || r.startsWith(requestsHugePagesPrefix)) out.push(r);
        if (isExtendedResourceNameForQuota(r)) out.push(r);
      }
      return out;
    },
    matchesScope(selector: ScopeSelectorRequirement, pod: KubeObject) {
      switch (selector.scopeName) {
        case 'Terminating':
          return isTerminating(pod);
        case 'NotTerminating':
          return !isTerminating(pod);
        case 'BestEffort':
          return isBestEffort(pod);
        case 'NotBestEffort':
          return !isBestEffort(pod);
        case 'PriorityClass': {
          const pc = podSpec(pod).priorityClassName;
          return matchesScopeValue(selector, pc ? pc : undefined);
        }
        case 'CrossNamespacePodAffinity':
          return usesCrossNamespacePodAffinity(pod);
        default:
          return false;
      }
    },
    constraints(required, pod) {
      const requiredSet = required.filter((r) => validationSet.has(r));
      if (requiredSet.length === 0) return undefined;
      const missing = new Map<string, Set<string>>();
      for (const c of allContainers(pod)) {
        const have = computeUsage(resourceListFromJSON(c.resources?.requests), resourceListFromJSON(c.resources?.limits));
        for (const r of requiredSet) {
          if (have.has(r)) continue;
          let names = missing.get(r);
          if (!names) missing.set(r, (names = new Set()));
          names.add(c.name ?? '');
        }
      }
      if (missing.size === 0) return undefined;
      const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...(missing.get(r) as Set<string>)].sort().join(',')}`);
      return `must specify ${parts.join('; ')}`;
    },
    usage(pod) {
      const result = new Map<string, Quantity>([['count/pods', count(1)]]);
      if (!quotaV1Pod(pod, now())) return result;
      return add(result, computeUsage(podRequests(pod), podLimits(pod)));
    },
  };
}
