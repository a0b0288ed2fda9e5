/**
 * What raising a namespace's enforce level would do to the pods already in it (kube's
 * EvaluatePodsInNamespace): up to 3000 pods, one per controller first, within 1 s (or half the
 * request's remaining time), grouped by identical reasons into warnings; and the warning for an
 * exempt namespace whose labels will be ignored.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { equivalentLevelVersion, fullyPrivileged, levelVersionString, type LevelVersion, type Policy } from './api.js';
import type { PodSecurityConfig } from './config.js';
import { aggregateCheckResults, forbiddenReason } from './policy/check.js';
import type { Evaluator } from './policy/evaluator.js';
import { compareStrings } from './policy/helpers.js';
import { extractPod } from './pod-spec-extractor.js';

/** Lists a namespace's pods (from the informer). */
export type PodLister = (namespace: string) => Promise<KubeObject[]>;

/** At most this many existing pods are checked. */
export const namespaceMaxPodsToCheck = 3000;
/** Checking existing pods stops after this long (or half the request's remaining time). */
export const namespacePodCheckTimeoutMs = 1000;

/** Pods of distinct controllers (and uncontrolled pods) first, exempt runtime classes left out. */
function prioritizePods(pods: readonly KubeObject[], config: PodSecurityConfig): KubeObject[] {
  const first: KubeObject[] = [];
  const duplicates: KubeObject[] = [];
  const seen = new Set<string>();
  for (const pod of pods) {
    const rc = (pod.spec as { runtimeClassName?: string } | undefined)?.runtimeClassName;
    if (rc && config.exemptRuntimeClasses.has(rc)) continue;
    const controller = pod.metadata.ownerReferences?.find((o) => o.controller === true);
    if (!controller) first.push(pod);
    else if (seen.has(controller.uid)) duplicates.push(pod);
    else {
      seen.add(controller.uid);
      first.push(pod);
    }
  }
  return [...first, ...duplicates];
}

/** The warnings for enforcing `enforce` on the namespace's existing pods. */
export async function evaluatePodsInNamespace(
  evaluator: Evaluator,
  config: PodSecurityConfig,
  listPods: PodLister,
  namespace: string,
  enforce: LevelVersion,
  requestDeadline: number | undefined,
  now: () => number = Date.now,
): Promise<string[]> {
  let timeout = namespacePodCheckTimeoutMs;
  if (requestDeadline !== undefined) timeout = Math.min(timeout, (requestDeadline - now()) / 2);
  const deadline = now() + timeout;
  let pods: KubeObject[];
  try {
    pods = await listPods(namespace);
  } catch {
    return ['failed to list pods while checking new PodSecurity enforce level'];
  }
  let prioritized = prioritizePods(pods, config);
  const total = prioritized.length;
  if (prioritized.length > namespaceMaxPodsToCheck) prioritized = prioritized.slice(0, namespaceMaxPodsToCheck);
  let checked = prioritized.length;
  const order: string[] = [];
  const counts = new Map<string, { podName: string; count: number }>();
  for (let i = 0; i < prioritized.length; i++) {
    const pod = prioritized[i] as KubeObject;
    const { meta, spec } = extractPod(pod);
    const r = aggregateCheckResults(evaluator.evaluatePod(enforce, meta, spec));
    if (!r.allowed) {
      const warning = forbiddenReason(r);
      const name = pod.metadata.name ?? '';
      const c = counts.get(warning);
      if (!c) {
        counts.set(warning, { podName: name, count: 1 });
        order.push(warning);
      } else {
        if (name < c.podName) c.podName = name;
        c.count++;
      }
    }
    if (now() >= deadline) {
      checked = i + 1;
      break;
    }
  }
  const warnings: string[] = [];
  if (checked < total) warnings.push(`new PodSecurity enforce level only checked against the first ${checked} of ${total} existing pods`);
  if (order.length > 0) warnings.push(`existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${levelVersionString(enforce)}"`);
  const podWarnings = order.map((w) => {
    const c = counts.get(w) as { podName: string; count: number };
    if (c.count === 1) return `${c.podName}: ${w}`;
    if (c.count === 2) return `${c.podName} (and 1 other pod): ${w}`;
    return `${c.podName} (and ${c.count - 1} other pods): ${w}`;
  });
  podWarnings.sort(compareStrings);
  return [...warnings, ...podWarnings];
}

/** The warning for labels on an exempt namespace that set a policy other than the defaults; '' when none. */
export function exemptNamespaceWarning(namespace: string, policy: Policy, labels: Readonly<Record<string, string>>, defaults: Policy): string {
  if (
    fullyPrivileged(policy) ||
    (equivalentLevelVersion(policy.enforce, defaults.enforce) && equivalentLevelVersion(policy.audit, defaults.audit) && equivalentLevelVersion(policy.warn, defaults.warn))
  ) {
    return '';
  }
  const parts: string[] = [];
  const mode = (name: string, lv: LevelVersion) => {
    const p = 'pod-security.kubernetes.io/';
    if (lv.level !== 'privileged' && (labels[`${p}${name}`] !== undefined || labels[`${p}${name}-version`] !== undefined)) parts.push(`${name}=${levelVersionString(lv)}`);
  };
  mode('enforce', policy.enforce);
  mode('audit', policy.audit);
  mode('warn', policy.warn);
  return `namespace "${namespace}" is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`;
}
