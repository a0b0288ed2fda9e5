/**
 * Which node labels a node may set on itself (kube's NodeRestriction rules): none under
 * node-restriction.kubernetes.io/ (or a subdomain of it), and of the kubernetes.io and k8s.io
 * namespaces only the labels the kubelet itself sets (kubelet's IsKubeletLabel).
 */

const kubeletLabels = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);
const kubeletLabelNamespaces = ['kubelet.kubernetes.io', 'node.kubernetes.io'];
const nodeRestrictionNamespace = 'node-restriction.kubernetes.io';

function labelNamespace(key: string): string {
  const i = key.indexOf('/');
  return i < 0 ? '' : key.slice(0, i);
}

const inDomain = (ns: string, domain: string): boolean => ns === domain || ns.endsWith(`.${domain}`);

/** Whether the kubelet sets this label itself. */
export function isKubeletLabel(key: string): boolean {
  if (kubeletLabels.has(key)) return true;
  const ns = labelNamespace(key);
  return kubeletLabelNamespaces.some((d) => inDomain(ns, d));
}

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
    const ns = labelNamespace(key);
    const restricted = inDomain(ns, nodeRestrictionNamespace);
    const kube = inDomain(ns, 'kubernetes.io') || inDomain(ns, 'k8s.io');
    if (restricted || (kube && !isKubeletLabel(key))) out.push(key);
  }
  return out.sort();
}
