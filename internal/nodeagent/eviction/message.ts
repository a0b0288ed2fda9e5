/**
 * kubelet's eviction message and annotations: "The node was low on resource: memory. Threshold
 * quantity: 100Mi, available: 51200Ki. Container app was using 300Mi, request is 0, has larger
 * consumption of memory. "
 */
import { newQuantity, parseQuantity } from '../../validation/quantity.js';
import type { EvictionThreshold } from '../interface.js';
import { containerRequest } from './rank.js';
import { resourceOf, thresholdValue, type Observations } from './signals.js';

/** The annotations kubelet puts on the Evicted event. */
export const offendingContainersKey = 'offending_containers';
export const offendingContainersUsageKey = 'offending_containers_usage';
export const starvedResourceKey = 'starved_resource';

function quantityText(value: number, resource: string): string {
  return newQuantity(Math.max(0, Math.floor(value)), 0, resource === 'pids' || resource === 'inodes' ? 'DecimalSI' : 'BinarySI').toString();
}

/** The message and event annotations for evicting pod (with its Summary stats) to reclaim threshold's resource. */
export function evictionMessage(threshold: EvictionThreshold, observations: Observations, pod: Record<string, any>, stats: Record<string, any> | undefined): { message: string; annotations: Record<string, string> } {
  const resource = resourceOf(threshold.signal);
  let message = `The node was low on resource: ${resource}. `;
  const o = observations.get(threshold.signal);
  if (o) message += `Threshold quantity: ${quantityText(thresholdValue(threshold, o.capacity), resource)}, available: ${quantityText(o.available, resource)}. `;
  const containers: string[] = [];
  const usages: string[] = [];
  for (const cs of stats?.containers ?? []) {
    const container = (pod.spec?.containers ?? []).find((c: any) => c.name === cs.name);
    if (!container) continue;
    let usage: number | undefined;
    if (resource === 'memory' && cs.memory?.workingSetBytes !== undefined) usage = cs.memory.workingSetBytes;
    if (resource === 'ephemeral-storage' && cs.rootfs?.usedBytes !== undefined && cs.logs?.usedBytes !== undefined) usage = cs.rootfs.usedBytes + cs.logs.usedBytes;
    if (usage === undefined) continue;
    const request = containerRequest(container, resource);
    if (usage > Number(parseQuantity(request).value())) {
      const text = quantityText(usage, resource);
      message += `Container ${container.name} was using ${text}, request is ${request}, has larger consumption of ${resource}. `;
      containers.push(container.name);
      usages.push(text);
    }
  }
  return { message, annotations: { [offendingContainersKey]: containers.join(','), [offendingContainersUsageKey]: usages.join(','), [starvedResourceKey]: resource } };
}
