/**
 * The labels and annotations kubelet puts on sandboxes and containers (kuberuntime's labels.go),
 * by which it finds a pod's runtime objects again, also after a restart.
 */
import { createHash } from 'node:crypto';
import type { Container, Pod } from './types.js';

/** Label keys kubelet sets. */
export const podNameLabel = 'io.kubernetes.pod.name';
export const podNamespaceLabel = 'io.kubernetes.pod.namespace';
export const podUidLabel = 'io.kubernetes.pod.uid';
export const containerNameLabel = 'io.kubernetes.container.name';
/** Annotation keys kubelet sets on containers. */
export const restartCountAnnotation = 'io.kubernetes.container.restartCount';
export const containerHashAnnotation = 'io.kubernetes.container.hash';
export const terminationMessagePathAnnotation = 'io.kubernetes.container.terminationMessagePath';
export const terminationMessagePolicyAnnotation = 'io.kubernetes.container.terminationMessagePolicy';
export const gracePeriodAnnotation = 'io.kubernetes.pod.terminationGracePeriod';
export const preStopAnnotation = 'io.kubernetes.container.preStopHandler';
export const portsAnnotation = 'io.kubernetes.container.ports';

/** A sandbox's labels: the pod's own plus name, namespace and uid. */
export function sandboxLabels(pod: Pod): Record<string, string> {
  return { ...pod.metadata.labels, [podNameLabel]: pod.metadata.name ?? '', [podNamespaceLabel]: pod.metadata.namespace ?? '', [podUidLabel]: pod.metadata.uid ?? '' };
}

/** A container's labels. */
export function containerLabels(pod: Pod, c: Container): Record<string, string> {
  return { [podNameLabel]: pod.metadata.name ?? '', [podNamespaceLabel]: pod.metadata.namespace ?? '', [podUidLabel]: pod.metadata.uid ?? '', [containerNameLabel]: c.name };
}

/** A hash of the container's spec: a changed spec means the container is restarted (kubelet's HashContainer). */
export function containerHash(c: Container): string {
  const { resources: _ignored, ...rest } = c;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex').slice(0, 8);
}

/** A container's annotations. */
export function containerAnnotations(pod: Pod, c: Container, restartCount: number): Record<string, string> {
  const out: Record<string, string> = {
    [containerHashAnnotation]: containerHash(c),
    [restartCountAnnotation]: String(restartCount),
    [terminationMessagePathAnnotation]: c.terminationMessagePath ?? '/dev/termination-log',
    [terminationMessagePolicyAnnotation]: c.terminationMessagePolicy ?? 'File',
  };
  if (pod.spec.terminationGracePeriodSeconds !== undefined) out[gracePeriodAnnotation] = String(pod.spec.terminationGracePeriodSeconds);
  if (c.lifecycle?.preStop) out[preStopAnnotation] = JSON.stringify(c.lifecycle.preStop);
  if (c.ports?.length) out[portsAnnotation] = JSON.stringify(c.ports);
  return out;
}
