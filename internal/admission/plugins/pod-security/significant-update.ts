/**
 * Which pod updates PodSecurity re-checks (kube's isSignificantPodUpdate): a pod's spec is
 * immutable but for images (and ephemeral containers, added through their subresource), so only a
 * changed image, a changed container count, an added ephemeral container or a changed container
 * seccomp annotation can change the verdict. Metadata-only and status updates are let through.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Container, PodSpec } from './pod-types.js';

const seccompContainerPrefix = 'container.seccomp.security.alpha.kubernetes.io/';

function significantContainer(c: Container, old: Container, annotations: Record<string, string>, oldAnnotations: Record<string, string>): boolean {
  if (c.image !== old.image) return true;
  const key = seccompContainerPrefix + (c.name ?? '');
  return annotations[key] !== oldAnnotations[key];
}

/** Whether the update from old to pod needs a policy evaluation. */
export function isSignificantPodUpdate(pod: KubeObject, old: KubeObject): boolean {
  const spec = (pod.spec ?? {}) as PodSpec;
  const oldSpec = (old.spec ?? {}) as PodSpec;
  const a = pod.metadata.annotations ?? {};
  const oa = old.metadata.annotations ?? {};
  const containers = spec.containers ?? [];
  const oldContainers = oldSpec.containers ?? [];
  const inits = spec.initContainers ?? [];
  const oldInits = oldSpec.initContainers ?? [];
  if (containers.length !== oldContainers.length || inits.length !== oldInits.length) return true;
  for (let i = 0; i < containers.length; i++) if (significantContainer(containers[i] as Container, oldContainers[i] as Container, a, oa)) return true;
  for (let i = 0; i < inits.length; i++) if (significantContainer(inits[i] as Container, oldInits[i] as Container, a, oa)) return true;
  const oldEphemeral = oldSpec.ephemeralContainers ?? [];
  for (const c of spec.ephemeralContainers ?? []) {
    const o = oldEphemeral.find((e) => e.name === c.name);
    if (!o || significantContainer(c, o, a, oa)) return true;
  }
  return false;
}
