/**
 * kubelet's restriction on --node-labels: labels in the kubernetes.io and k8s.io namespaces are
 * refused unless their prefix is kubelet.kubernetes.io or node.kubernetes.io (or a subdomain) or
 * the key is one of the labels kubelet may set itself (NodeRestriction lets it set only these).
 */

/** The kubernetes.io labels a kubelet may set on its Node. */
export const kubeletAllowedLabels: readonly string[] = [
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

const allowedPrefixes = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

function inNamespace(domain: string, ns: string): boolean {
  return domain === ns || domain.endsWith(`.${ns}`);
}

/** True when kubelet accepts the label key from --node-labels. */
export function isKubeletLabel(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return true;
  const domain = key.slice(0, slash);
  if (!inNamespace(domain, 'kubernetes.io') && !inNamespace(domain, 'k8s.io')) return true;
  if (kubeletAllowedLabels.includes(key)) return true;
  return allowedPrefixes.some((p) => inNamespace(domain, p));
}

/**
 * kubelet's message for --node-labels it refuses, or undefined when every label is allowed
 * (kubelet stops at start with this message).
 */
export function nodeLabelsError(labels: Readonly<Record<string, string>>): string | undefined {
  const unknown = Object.keys(labels).filter((k) => !isKubeletLabel(k)).sort();
  if (unknown.length === 0) return undefined;
  return (
    `unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: [${unknown.join(' ')}]\n` +
    `--node-labels in the 'kubernetes.io' namespace must begin with an allowed prefix (${allowedPrefixes.join(', ')}) or be in the specifically allowed set (${kubeletAllowedLabels.join(', ')})`
  );
}
