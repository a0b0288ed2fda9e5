/**
 * The involvedObject.fieldPath kubelet puts on a container's events (its container reference):
 * spec.containers{name}, spec.initContainers{name} or spec.ephemeralContainers{name}.
 */
import type { KubeObject } from '../../../api/meta/types.js';

const lists = [
  ['containers', 'spec.containers'],
  ['initContainers', 'spec.initContainers'],
  ['ephemeralContainers', 'spec.ephemeralContainers'],
] as const;

/** The field path of pod's container name (spec.containers{name} when the pod does not list it). */
export function containerFieldPath(pod: KubeObject, name: string): string {
  const spec = (pod.spec ?? {}) as Record<string, unknown>;
  for (const [field, path] of lists) {
    const list = spec[field];
    if (Array.isArray(list) && list.some((c) => (c as { name?: unknown } | null)?.name === name)) return `${path}{${name}}`;
  }
  return `spec.containers{${name}}`;
}
