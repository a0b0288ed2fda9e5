/**
 * A pod's resource requests as the scheduler and kubelet's admission count them (kube's
 * PodRequests): the sum over regular and sidecar (restartPolicy Always init) containers, or the
 * largest init container plus the sidecars started before it, whichever is more, plus the
 * pod's overhead. CPU in millicores (rounded up), everything else in whole units.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { parseQuantityNanos } from '../../registry/core/shared/quantity.js';

type Json = Record<string, unknown>;

/** Requests by resource name (cpu in millicores, memory and others in bytes or units). */
export type Requests = Map<string, bigint>;

function list(v: unknown): Json[] {
  return Array.isArray(v) ? (v as Json[]) : [];
}

/** One quantity in the unit admission compares: millicores for cpu, whole units otherwise (rounded up). */
export function quantityUnits(resource: string, value: unknown): bigint {
  const nanos = parseQuantityNanos(value) ?? 0n;
  const unit = resource === 'cpu' ? 1_000_000n : 1_000_000_000n;
  return (nanos + unit - 1n) / unit;
}

function requestsOf(obj: unknown): Requests {
  const out: Requests = new Map();
  for (const [k, v] of Object.entries(((obj as Json | undefined) ?? {}) as Json)) out.set(k, quantityUnits(k, v));
  return out;
}

function add(into: Requests, more: Requests): void {
  for (const [k, v] of more) into.set(k, (into.get(k) ?? 0n) + v);
}

function maxInto(into: Requests, other: Requests): void {
  for (const [k, v] of other) if (v > (into.get(k) ?? 0n)) into.set(k, v);
}

/** The pod's effective requests. */
export function podRequests(pod: KubeObject): Requests {
  const spec = (pod.spec ?? {}) as Json;
  const total: Requests = new Map();
  for (const c of list(spec.containers)) add(total, requestsOf((c.resources as Json | undefined)?.requests));
  const sidecars: Requests = new Map();
  const initMax: Requests = new Map();
  for (const c of list(spec.initContainers)) {
    const req = requestsOf((c.resources as Json | undefined)?.requests);
    if (c.restartPolicy === 'Always') {
      add(sidecars, req);
      add(total, req);
      maxInto(initMax, new Map(sidecars));
    } else {
      const withSidecars: Requests = new Map(sidecars);
      add(withSidecars, req);
      maxInto(initMax, withSidecars);
    }
  }
  maxInto(total, initMax);
  add(total, requestsOf(spec.overhead));
  return total;
}
