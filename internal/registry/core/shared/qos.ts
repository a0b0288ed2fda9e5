/**
 * The pod QoS class kube computes on create (qos.ComputePodQOS, without pod-level resources,
 * which are off by default in 1.33): Guaranteed when every container limits cpu and memory and
 * requests equal limits, BestEffort when nothing requests or limits cpu or memory, else Burstable.
 */
import { arrayAt, asObject, objectAt, type JsonObject } from './json-value.js';
import { parseQuantityNanos } from './quantity.js';

/** v1.PodQOSClass values. */
export type PodQOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const qosResources = ['cpu', 'memory'] as const;

function positive(list: JsonObject | undefined, name: string): bigint | undefined {
  const q = parseQuantityNanos(list?.[name]);
  return q !== undefined && q > 0n ? q : undefined;
}

/** The QoS class of a pod spec. Reads only; never mutates. */
export function computePodQOS(spec: JsonObject | undefined): PodQOSClass {
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  const containers = [...arrayAt(spec, 'containers'), ...arrayAt(spec, 'initContainers')];
  for (const c of containers) {
    const resources = objectAt(asObject(c), 'resources');
    const lim = objectAt(resources, 'limits');
    // kube defaults a missing request to the limit before it computes the class.
    const req = { ...lim, ...objectAt(resources, 'requests') };
    const limitsFound = new Set<string>();
    for (const name of qosResources) {
      const r = positive(req, name);
      if (r !== undefined) requests.set(name, (requests.get(name) ?? 0n) + r);
      const l = positive(lim, name);
      if (l !== undefined) {
        limitsFound.add(name);
        limits.set(name, (limits.get(name) ?? 0n) + l);
      }
    }
    if (!limitsFound.has('cpu') || !limitsFound.has('memory')) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, r] of requests) {
      if (limits.get(name) !== r) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
