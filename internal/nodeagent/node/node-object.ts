/**
 * The Node object kubelet registers (initialNode) and the status fields it keeps current:
 * labels (kubernetes.io/hostname, kubernetes.io/os and arch, their beta twins, --node-labels),
 * the controller-managed-attach-detach annotation, --register-with-taints, capacity and allocatable
 * (allocatable = capacity minus the hard eviction thresholds of memory and nodefs, as kubelet
 * reserves them), nodeInfo, addresses, daemonEndpoints and the top 50 images by size.
 */
import { newQuantity } from '../../validation/quantity.js';
import type { EvictionThreshold, NodeAgentConfig } from '../interface.js';
import type { FsInfo, MachineInfo } from './machine-info.js';
import type { NodeCondition } from './conditions.js';

/** kubelet's nodeStatusMaxImages and maxNamesPerImageInNodeStatus. */
export const nodeStatusMaxImages = 50;
const maxNamesPerImage = 5;

/** The annotation kubelet sets so the attach/detach controller manages the node's volumes. */
export const controllerManagedAttachDetachAnnotation = 'volumes.kubernetes.io/controller-managed-attach-detach';

/** An image as the node status lists it. */
export interface NodeImage {
  names: string[];
  sizeBytes: number;
}

/** What one status computation is made from. */
export interface StatusInputs {
  readonly config: NodeAgentConfig;
  readonly nodeName: string;
  readonly hostname: string;
  readonly machine: MachineInfo;
  /** The root directory's filesystem (ephemeral-storage). */
  readonly rootFs: FsInfo;
  readonly internalIPs: readonly string[];
  /** "containerd://1.6.20~ds1", from CRI Version (runtime_name://runtime_version). */
  readonly containerRuntimeVersion: string;
  readonly kubeletVersion: string;
  readonly images: readonly NodeImage[];
  readonly conditions: readonly NodeCondition[];
}

/** The labels kubelet always sets (getNodeDefaultLabels-like): hostname, os and arch with their beta twins. */
export function defaultNodeLabels(hostname: string, machine: Pick<MachineInfo, 'operatingSystem' | 'architecture'>): Record<string, string> {
  return {
    'beta.kubernetes.io/arch': machine.architecture,
    'beta.kubernetes.io/os': machine.operatingSystem,
    'kubernetes.io/arch': machine.architecture,
    'kubernetes.io/hostname': hostname,
    'kubernetes.io/os': machine.operatingSystem,
  };
}

/** The pods capacity: maxPods, or podsPerCore x cores when that is set and lower. */
export function podsCapacity(config: Pick<NodeAgentConfig, 'maxPods' | 'podsPerCore'>, cores: number): number {
  return config.podsPerCore > 0 ? Math.min(config.maxPods, config.podsPerCore * cores) : config.maxPods;
}

/** The bytes a hard eviction threshold of signal reserves out of capacity (kubelet's hardEvictionReservation). */
export function hardEvictionReservation(thresholds: readonly EvictionThreshold[], signal: string, capacity: number): number {
  const t = thresholds.find((x) => x.signal === signal);
  if (!t) return 0;
  if (t.quantity !== undefined) return t.quantity;
  return Math.floor(capacity * (t.percentage ?? 0));
}

/** Capacity and allocatable of the node. */
export function nodeResources(config: NodeAgentConfig, machine: MachineInfo, rootFs: FsInfo): { capacity: Record<string, string>; allocatable: Record<string, string> } {
  const pods = String(podsCapacity(config, machine.cores));
  const capacity = {
    cpu: String(machine.cores),
    'ephemeral-storage': newQuantity(rootFs.capacityBytes, 0, 'BinarySI').toString(),
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: newQuantity(machine.memoryBytes, 0, 'BinarySI').toString(),
    pods,
  };
  const memory = Math.max(0, machine.memoryBytes - hardEvictionReservation(config.evictionHard, 'memory.available', machine.memoryBytes));
  const storage = Math.max(0, rootFs.capacityBytes - hardEvictionReservation(config.evictionHard, 'nodefs.available', rootFs.capacityBytes));
  const allocatable = {
    ...capacity,
    'ephemeral-storage': newQuantity(storage, 0, 'BinarySI').toString(),
    memory: newQuantity(memory, 0, 'BinarySI').toString(),
  };
  return { capacity, allocatable };
}

/** The node's status (without phase, which kubelet no longer sets). */
export function nodeStatus(inputs: StatusInputs): Record<string, unknown> {
  const { config, machine } = inputs;
  const { capacity, allocatable } = nodeResources(config, machine, inputs.rootFs);
  return {
    capacity,
    allocatable,
    conditions: inputs.conditions,
    addresses: [...inputs.internalIPs.map((address) => ({ type: 'InternalIP', address })), { type: 'Hostname', address: inputs.hostname }],
    daemonEndpoints: { kubeletEndpoint: { Port: config.port } },
    nodeInfo: {
      machineID: machine.machineID,
      systemUUID: machine.systemUUID,
      bootID: machine.bootID,
      kernelVersion: machine.kernelVersion,
      osImage: machine.osImage,
      containerRuntimeVersion: inputs.containerRuntimeVersion,
      kubeletVersion: inputs.kubeletVersion,
      kubeProxyVersion: inputs.kubeletVersion,
      operatingSystem: machine.operatingSystem,
      architecture: machine.architecture,
    },
    images: inputs.images,
  };
}

/** The top images by size (kubelet's images setter): names are digests then tags, at most 5 of them. */
export function topImages(images: readonly { repo_tags?: string[]; repo_digests?: string[]; size?: string | number }[]): NodeImage[] {
  return [...images]
    .map((i) => ({ names: [...(i.repo_digests ?? []), ...(i.repo_tags ?? [])].slice(0, maxNamesPerImage), sizeBytes: Number(i.size ?? 0) }))
    .sort((a, b) => b.sizeBytes - a.sizeBytes)
    .slice(0, nodeStatusMaxImages);
}

/** kubelet's initialNode: metadata, spec.taints and the first status. */
export function initialNode(inputs: StatusInputs): Record<string, unknown> {
  const { config } = inputs;
  const labels = { ...defaultNodeLabels(inputs.hostname, inputs.machine), ...config.nodeLabels };
  const spec: Record<string, unknown> = {};
  if (config.registerWithTaints.length > 0) spec.taints = config.registerWithTaints.map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect }));
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: inputs.nodeName, labels, annotations: { [controllerManagedAttachDetachAnnotation]: 'true' } },
    spec,
    status: nodeStatus(inputs),
  };
}

/**
 * kubelet's reconciliation of an existing Node at registration (updateDefaultLabels and the
 * controller-managed-attach-detach annotation): the node with its default labels and annotation
 * made current, and whether anything changed. Never mutates existing.
 */
export function reconcileExistingNode(existing: Record<string, any>, wanted: Record<string, any>): { node: Record<string, any>; changed: boolean } {
  const node = structuredClone(existing);
  node.metadata ??= {};
  const labels: Record<string, string> = (node.metadata.labels ??= {});
  let changed = false;
  for (const [k, v] of Object.entries(defaultNodeLabelsOf(wanted))) {
    if (labels[k] !== v) {
      labels[k] = v;
      changed = true;
    }
  }
  const annotations: Record<string, string> = (node.metadata.annotations ??= {});
  if (annotations[controllerManagedAttachDetachAnnotation] !== 'true') {
    annotations[controllerManagedAttachDetachAnnotation] = 'true';
    changed = true;
  }
  return { node, changed };
}

function defaultNodeLabelsOf(wanted: Record<string, any>): Record<string, string> {
  const labels = (wanted.metadata?.labels ?? {}) as Record<string, string>;
  const keys = ['kubernetes.io/hostname', 'kubernetes.io/os', 'kubernetes.io/arch', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch'];
  return Object.fromEntries(keys.filter((k) => labels[k] !== undefined).map((k) => [k, labels[k] as string]));
}
