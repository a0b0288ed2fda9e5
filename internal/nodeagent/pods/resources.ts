/**
 * Container resources as kubelet hands them to the runtime (kuberuntime's
 * generateLinuxContainerResources): cpu shares from the cpu request, a CFS quota from the cpu limit
 * over a 100 ms period, the memory limit, and oom_score_adj by QoS class (qos.GetContainerOOMScoreAdjust).
 * Also the values resourceFieldRef env vars and downward API files read.
 */
import { cpus, totalmem } from 'node:os';
import type { LinuxContainerResources } from '../../../proto/cri/v1/types.js';
import { computePodQOS, type PodQOSClass } from '../../registry/core/shared/qos.js';
import type { JsonObject } from '../../registry/core/shared/json-value.js';
import { parseQuantityNanos } from '../../registry/core/shared/quantity.js';
import type { Container, Pod, ResourceFieldRef } from './types.js';

const nanos = 1_000_000_000n;
const minShares = 2;
const maxShares = 262144;
const quotaPeriod = 100_000;
const minQuota = 1000;

/** The pod's QoS class: status.qosClass when the API server set it, else computed as kube does. */
export function podQOS(pod: Pod): PodQOSClass {
  const q = pod.status?.qosClass;
  if (q === 'Guaranteed' || q === 'Burstable' || q === 'BestEffort') return q;
  return computePodQOS(pod.spec as unknown as JsonObject);
}

function milli(value: unknown): number | undefined {
  const n = parseQuantityNanos(value);
  return n === undefined ? undefined : Number((n + 999_999n) / 1_000_000n);
}

function bytes(value: unknown): number | undefined {
  const n = parseQuantityNanos(value);
  return n === undefined ? undefined : Number((n + nanos - 1n) / nanos);
}

/** The LinuxContainerResources of a container of pod (memCapacity: the node's memory, for oom_score_adj). */
export function linuxResources(pod: Pod, c: Container, memCapacity = totalmem()): LinuxContainerResources {
  const req = { ...c.resources?.limits, ...c.resources?.requests };
  const lim = c.resources?.limits ?? {};
  const cpuReq = milli(req.cpu);
  const cpuLim = milli(lim.cpu);
  const memLim = bytes(lim.memory);
  const out: LinuxContainerResources = {};
  // kubelet: shares = request * 1024 / 1000, at least 2 (also with no request at all).
  out.cpu_shares = cpuReq === undefined || cpuReq === 0 ? minShares : Math.min(maxShares, Math.max(minShares, Math.floor((cpuReq * 1024) / 1000)));
  if (cpuLim !== undefined && cpuLim > 0) {
    out.cpu_period = quotaPeriod;
    out.cpu_quota = Math.max(minQuota, Math.floor((cpuLim * quotaPeriod) / 1000));
  }
  if (memLim !== undefined && memLim > 0) out.memory_limit_in_bytes = memLim;
  out.oom_score_adj = oomScoreAdj(pod, c, memCapacity);
  return out;
}

/** kubelet's GetContainerOOMScoreAdjust (without the critical-pod and sidecar adjustments). */
export function oomScoreAdj(pod: Pod, c: Container, memCapacity: number): number {
  const qos = podQOS(pod);
  if (qos === 'Guaranteed') return -997;
  if (qos === 'BestEffort') return 1000;
  const memReq = bytes({ ...c.resources?.limits, ...c.resources?.requests }.memory) ?? 0;
  const adj = 1000 - Math.floor((1000 * memReq) / memCapacity);
  // Burstable stays above Guaranteed and system daemons (2) and below BestEffort (999).
  return Math.min(999, Math.max(2, adj));
}

/**
 * The value of a resourceFieldRef (env var or downward API file) as kubelet's
 * ExtractContainerResourceValue gives it: limits fall back to the node's allocatable, the value is
 * divided by the divisor (default 1) and rounded up. Throws for an unsupported resource.
 */
export function resourceFieldValue(ref: ResourceFieldRef, c: Container | undefined): string {
  const limits = c?.resources?.limits ?? {};
  const requests = { ...limits, ...c?.resources?.requests };
  const divisor = parseQuantityNanos(ref.divisor ?? '1') || 1n * nanos;
  const nodeCpu = BigInt(cpus().length) * nanos;
  const nodeMem = BigInt(totalmem()) * nanos;
  let value: bigint;
  switch (ref.resource) {
    case 'limits.cpu':
      value = parseQuantityNanos(limits.cpu) ?? nodeCpu;
      break;
    case 'requests.cpu':
      value = parseQuantityNanos(requests.cpu) ?? 0n;
      break;
    case 'limits.memory':
      value = parseQuantityNanos(limits.memory) ?? nodeMem;
      break;
    case 'requests.memory':
      value = parseQuantityNanos(requests.memory) ?? 0n;
      break;
    case 'limits.ephemeral-storage':
    case 'requests.ephemeral-storage':
      value = parseQuantityNanos((ref.resource.startsWith('limits') ? limits : requests)['ephemeral-storage']) ?? 0n;
      break;
    default:
      throw new Error(`unsupported container resource : ${ref.resource}`);
  }
  // Requests of cpu round up to at least 1 with the default divisor, as kube's ceil does.
  return String((value + divisor - 1n) / divisor);
}
