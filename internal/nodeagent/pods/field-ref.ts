/**
 * The values fieldRef selectors read (env vars and downward API files), as kubelet's
 * podFieldSelectorRuntimeValue and fieldpath.ExtractFieldPathAsString give them.
 */
import type { Pod } from './types.js';

/** Runtime facts a fieldRef may name that the pod object does not hold yet. */
export interface RuntimeFields {
  readonly podIPs: readonly string[];
  readonly hostIPs: readonly string[];
}

const subscript = /^metadata\.(labels|annotations)\['(.*)'\]$/;

/** Quotes as Go's %q does for the downward API's labels/annotations files. */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** The whole labels or annotations map as the downward API writes it: sorted key="value" lines. */
export function formatMap(m: Record<string, string> | undefined): string {
  return Object.keys(m ?? {})
    .sort()
    .map((k) => `${k}=${goQuote(m![k]!)}`)
    .join('\n');
}

/** The value of fieldPath for pod; throws Error with kube's message for an unsupported path. */
export function fieldRefValue(pod: Pod, fieldPath: string, rt: RuntimeFields): string {
  const m = subscript.exec(fieldPath);
  if (m) {
    const map = m[1] === 'labels' ? pod.metadata.labels : pod.metadata.annotations;
    return map?.[m[2]!] ?? '';
  }
  switch (fieldPath) {
    case 'metadata.name':
      return pod.metadata.name ?? '';
    case 'metadata.namespace':
      return pod.metadata.namespace ?? '';
    case 'metadata.uid':
      return pod.metadata.uid ?? '';
    case 'metadata.labels':
      return formatMap(pod.metadata.labels);
    case 'metadata.annotations':
      return formatMap(pod.metadata.annotations);
    case 'spec.nodeName':
      return pod.spec.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec.serviceAccountName ?? '';
    case 'status.hostIP':
      return rt.hostIPs[0] ?? '';
    case 'status.hostIPs':
      return rt.hostIPs.join(',');
    case 'status.podIP':
      return rt.podIPs[0] ?? '';
    case 'status.podIPs':
      return rt.podIPs.join(',');
    default:
      throw new Error(`unsupported fieldPath: ${fieldPath}`);
  }
}
