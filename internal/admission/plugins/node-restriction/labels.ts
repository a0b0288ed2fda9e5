/**
 * Which node labels a node may set on itself (kube's NodeRestriction rules): none under
 * node-restriction.kubernetes.io/ (or a subdomain of it), and of the kubernetes.io and k8s.io
 * namespaces only the labels the kubelet itself sets (kubelet's IsKubeletLabel).
 */
import { inDomain, isKubeletLabel, isKubernetesLabel, labelNamespace } from '../../../registry/core/shared/kubelet-labels.js';

const nodeRestrictionNamespace = 'node-restriction.kubernetes.io';

/** The keys whose value differs between a and b (added, removed or changed). */
export function modifiedLabels(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): Set<string> {
  const out = new Set<string>();
  const x = a ?? {};
  const y = b ?? {};
  for (const [k, v] of Object.entries(x)) if (y[k] !== v) out.add(k);
  for (const [k, v] of Object.entries(y)) if (x[k] !== v) out.add(k);
  return out;
}

/** Of the modified labels, those a node may not add, change or remove, sorted. */
export function forbiddenLabels(modified: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const key of modified) {
    const restricted = inDomain(labelNamespace(key), nodeRestrictionNamespace);
    if (restricted || (isKubernetesLabel(key) && !isKubeletLabel(key))) out.push(key);
  }
  return out.sort();
}
