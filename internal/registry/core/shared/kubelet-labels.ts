/**
 * The node labels a kubelet sets itself (kubelet's kubeletapis.IsKubeletLabel): a fixed set of
 * kubernetes.io keys and anything under kubelet.kubernetes.io or node.kubernetes.io. The
 * NodeRestriction admission plugin lets a node change only these of the kubernetes.io and k8s.io
 * labels, and the node agent's --node-labels accepts only these of them.
 */

/** The kubernetes.io labels a kubelet may set on its Node. */
export const kubeletLabels: readonly string[] = [
  'beta.kubernetes.io/arch',
  'beta.kubernetes.io/instance-type',
  'beta.kubernetes.io/os',
  'failure-domain.beta.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'kubernetes.io/arch',
  'kubernetes.io/hostname',
  'kubernetes.io/os',
  'node.kubernetes.io/instance-type',
  'topology.kubernetes.io/region',
  'topology.kubernetes.io/zone',
];

/** Label namespaces a kubelet may set any label under. */
export const kubeletLabelNamespaces: readonly string[] = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

const kubeletLabelSet = new Set(kubeletLabels);

/** The namespace (prefix before "/") of a label key, or ''. */
export function labelNamespace(key: string): string {
  const i = key.indexOf('/');
  return i < 0 ? '' : key.slice(0, i);
}

/** True when ns is domain or a subdomain of it. */
export function inDomain(ns: string, domain: string): boolean {
  return ns === domain || ns.endsWith(`.${domain}`);
}

/** Whether the kubelet sets this label itself. */
export function isKubeletLabel(key: string): boolean {
  if (kubeletLabelSet.has(key)) return true;
  const ns = labelNamespace(key);
  return kubeletLabelNamespaces.some((d) => inDomain(ns, d));
}

/** Whether the key is in the kubernetes.io or k8s.io namespace (or a subdomain). */
export function isKubernetesLabel(key: string): boolean {
  const ns = labelNamespace(key);
  return inDomain(ns, 'kubernetes.io') || inDomain(ns, 'k8s.io');
}
