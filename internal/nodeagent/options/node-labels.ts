/**
 * --node-labels: key=value pairs, with kubelet's restriction on the kubernetes.io and k8s.io
 * namespaces (only the labels the NodeRestriction admission plugin lets a node set itself).
 */

/** Label namespaces a kubelet may set any label under. */
export const kubeletLabelNamespaces: readonly string[] = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

/** The kubernetes.io / k8s.io labels a kubelet may set. */
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

function namespaceOf(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

/** True when the kubelet may set label key itself (kubeletapis.IsKubeletLabel). */
export function isKubeletLabel(key: string): boolean {
  if (kubeletLabels.includes(key)) return true;
  const ns = namespaceOf(key);
  return kubeletLabelNamespaces.some((allowed) => ns === allowed || ns.endsWith(`.${allowed}`));
}

function isRestricted(key: string): boolean {
  const ns = namespaceOf(key);
  return ['kubernetes.io', 'k8s.io'].some((d) => ns === d || ns.endsWith(`.${d}`));
}

const qualifiedName = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Checks the labels as kubelet's flag validation does; throws kubelet's message. */
export function checkNodeLabels(labels: Readonly<Record<string, string>>): void {
  const invalid: string[] = [];
  for (const [k, v] of Object.entries(labels)) {
    if (!qualifiedName.test(k)) invalid.push(`invalid label key ${JSON.stringify(k)}`);
    if (v.length > 63 || !labelValue.test(v)) invalid.push(`invalid label value ${JSON.stringify(v)} for key ${JSON.stringify(k)}`);
  }
  if (invalid.length > 0) throw new Error(`invalid node labels: ${invalid.join(', ')}`);
  const unknown = Object.keys(labels).filter((k) => isRestricted(k) && !isKubeletLabel(k)).sort();
  if (unknown.length > 0) {
    throw new Error(
      `unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: [${unknown.join(' ')}]\n--node-labels in the 'kubernetes.io' namespace must begin with an allowed prefix (${kubeletLabelNamespaces.join(', ')}) or be in the specifically allowed set (${kubeletLabels.join(', ')})`,
    );
  }
}

/** Parses "k=v,k2=v2" into labels (kubelet's mapStringString flag); repeated flags add up. */
export function parseLabelPairs(text: string, into: Record<string, string> = {}): Record<string, string> {
  for (const item of text.split(',').map((s) => s.trim()).filter((s) => s.length > 0)) {
    const eq = item.indexOf('=');
    if (eq < 0) throw new Error(`malformed pair, expect string=string`);
    into[item.slice(0, eq).trim()] = item.slice(eq + 1).trim();
  }
  return into;
}
