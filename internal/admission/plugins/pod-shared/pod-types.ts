/**
 * The parts of a v1 Pod (and Node) the pod admission plugins read and write, as the JSON objects
 * admission sees them. Plugins change these objects in place during admit.
 */
import type { KubeObject } from '../../../../api/meta/types.js';

/** A resource list: resource name -> quantity (string as sent, number tolerated). */
export type ResourceList = Record<string, string | number>;

/** core/v1 ResourceRequirements. */
export interface ResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
  [field: string]: unknown;
}

/** core/v1 VolumeMount. */
export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  [field: string]: unknown;
}

/** core/v1 Container (also init and ephemeral containers). */
export interface Container {
  name: string;
  image?: string;
  imagePullPolicy?: string;
  resources?: ResourceRequirements;
  volumeMounts?: VolumeMount[];
  restartPolicy?: string;
  env?: { name: string; valueFrom?: { secretKeyRef?: { name?: string } } }[];
  [field: string]: unknown;
}

/** core/v1 Toleration. */
export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

/** core/v1 Volume (the sources the plugins look at). */
export interface Volume {
  name: string;
  secret?: { secretName?: string };
  projected?: { sources?: Record<string, unknown>[]; defaultMode?: number };
  persistentVolumeClaim?: unknown;
  [field: string]: unknown;
}

/** core/v1 PodSpec (what the plugins use). */
export interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  volumes?: Volume[];
  serviceAccountName?: string;
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  imagePullSecrets?: { name?: string }[];
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
  affinity?: { podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { topologyKey?: string }[] } };
  priorityClassName?: string;
  priority?: number;
  preemptionPolicy?: string;
  runtimeClassName?: string;
  overhead?: ResourceList;
  [field: string]: unknown;
}

/** A Pod as admission sees it. */
export interface Pod extends KubeObject {
  spec?: PodSpec;
  status?: { [field: string]: unknown };
}

/** The pod's spec, created empty when missing (for plugins that write it). */
export function podSpec(pod: KubeObject): PodSpec {
  const p = pod as Pod;
  if (!p.spec || typeof p.spec !== 'object') p.spec = {};
  return p.spec;
}

/** Init containers, containers and ephemeral containers, in kube's VisitContainers order, with their field paths. */
export function* allContainers(spec: PodSpec): Generator<[Container, string]> {
  for (const [i, c] of (spec.initContainers ?? []).entries()) yield [c, `spec.initContainers[${i}]`];
  for (const [i, c] of (spec.containers ?? []).entries()) yield [c, `spec.containers[${i}]`];
  for (const [i, c] of (spec.ephemeralContainers ?? []).entries()) yield [c, `spec.ephemeralContainers[${i}]`];
}

/** The annotation that marks a mirror pod (a static pod's copy made by its node). */
export const mirrorPodAnnotation = 'kubernetes.io/config.mirror';

/** Whether the request is about pods themselves (no subresource). */
export function isPodRequest(group: string, resource: string, subresource: string): boolean {
  return resource === 'pods' && group === '' && subresource === '';
}
