/**
 * --node-labels: key=value pairs, with kubelet's restriction on the kubernetes.io and k8s.io
 * namespaces (only the labels the NodeRestriction admission plugin lets a node set itself).
 */
import { isKubeletLabel, isKubernetesLabel, kubeletLabelNamespaces, kubeletLabels } from '../../registry/core/shared/kubelet-labels.js';

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
  const refused = nodeLabelsError(labels);
  if (refused) throw new Error(refused);
}

/**
 * kubelet's message for --node-labels in the kubernetes.io and k8s.io namespaces that it does not
 * set itself, or undefined when there are none (kubelet stops at start with this message).
 */
export function nodeLabelsError(labels: Readonly<Record<string, string>>): string | undefined {
  const unknown = Object.keys(labels).filter((k) => isKubernetesLabel(k) && !isKubeletLabel(k)).sort();
  if (unknown.length === 0) return undefined;
  return `unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: [${unknown.join(' ')}]\n--node-labels in the 'kubernetes.io' namespace must begin with an allowed prefix (${kubeletLabelNamespaces.join(', ')}) or be in the specifically allowed set (${kubeletLabels.join(', ')})`;
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
