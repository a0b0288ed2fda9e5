/**
 * kube's NodePort repair (pkg/registry/core/service/portallocator/controller/repair.go): the
 * stored bitmap is rebuilt from the Services' node ports, each port a Service holds but the
 * bitmap lacks is reported and taken again, a port two Services hold or one outside the range is
 * reported, and a port the bitmap holds that no Service uses is kept for three more passes (it may
 * belong to a Service being created) before it is freed. The rebuilt bitmap is written with a
 * compare-and-swap against the one read; a lost race is retried.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { Logger } from '../../observability/logging.js';
import { isStorageError } from '../../storage/errors.js';
import { decodeBitmap, type NodePortAllocator } from '../../registry/core/services/node-port-allocator.js';
import { portRangeContains, portRangeString } from '../../registry/core/services/port-range.js';
import type { JsonObject } from '../../registry/core/shared/json-value.js';
import type { EventRecorder } from '../event-recorder.js';
import type { ResourceClient } from '../resource-client.js';

/** kube's numRepairsBeforeLeakCleanup. */
const repairsBeforeLeakCleanup = 3;

/** What the repair works with; leaks persists between passes. */
export interface NodePortRepairDeps {
  readonly services: ResourceClient;
  readonly allocator: NodePortAllocator;
  readonly recorder: EventRecorder;
  readonly log: Logger;
  readonly leaks: Map<number, number>;
}

const ref = { kind: 'Service', apiVersion: 'v1' };

/** The repair controller's collectServiceNodePorts: one nodePort shared by TCP and UDP counts once. */
export function collectServiceNodePorts(spec: JsonObject | undefined): number[] {
  const out: number[] = [];
  const seen = new Map<number, Set<string>>();
  for (const raw of (spec?.ports as Array<Record<string, unknown>> | undefined) ?? []) {
    const np = typeof raw.nodePort === 'number' ? raw.nodePort : 0;
    if (np === 0) continue;
    const proto = typeof raw.protocol === 'string' ? raw.protocol : 'TCP';
    const s = seen.get(np);
    if (!s) {
      seen.set(np, new Set([proto]));
      out.push(np);
    } else if (s.has(proto)) out.push(np);
    else s.add(proto);
  }
  const hc = typeof spec?.healthCheckNodePort === 'number' ? spec.healthCheckNodePort : 0;
  if (hc !== 0) {
    const s = seen.get(hc);
    if (!s || s.has('TCP')) out.push(hc);
  }
  return out;
}

async function runOnce(d: NodePortRepairDeps): Promise<void> {
  const range = d.allocator.range;
  const rangeText = portRangeString(range);
  const snap = await d.allocator.snapshot();
  // The stored bitmap, read in its own range (the flag may have changed since it was written).
  const storedRange = snap.range ?? rangeText;
  const [lo = '0', hi = '0'] = storedRange.split('-');
  const storedBase = Number(lo);
  const storedBits = decodeBitmap(snap.data, Number(hi) - storedBase + 1);
  const storedHas = (port: number): boolean => port >= storedBase && storedBits[port - storedBase] === 1;
  const release = (port: number): void => {
    if (port >= storedBase && port - storedBase < storedBits.length) storedBits[port - storedBase] = 0;
  };
  const rebuilt = new Uint8Array(range.size);
  const services: KubeObject[] = await d.services.list();
  for (const svc of services) {
    const key = `${svc.metadata.name ?? ''}/${svc.metadata.namespace ?? ''}`;
    for (const port of collectServiceNodePorts(svc.spec as JsonObject | undefined)) {
      if (!portRangeContains(range, port)) {
        await d.recorder.event(svc, ref, 'Warning', 'PortOutOfRange', `Port ${port} is not within the port range ${rangeText}; please recreate service`);
        d.log.error(`the port ${port} for service ${key} is not within the port range ${rangeText}; please recreate`);
        continue;
      }
      if (rebuilt[port - range.base]) {
        await d.recorder.event(svc, ref, 'Warning', 'PortAlreadyAllocated', `Port ${port} was assigned to multiple services; please recreate service`);
        d.log.error(`the node port ${port} for service ${key} was assigned to multiple services; please recreate`);
        continue;
      }
      rebuilt[port - range.base] = 1;
      if (storedHas(port)) release(port);
      else {
        await d.recorder.event(svc, ref, 'Warning', 'PortNotAllocated', `Port ${port} is not allocated; repairing`);
        d.log.error(`the node port ${port} for service ${key} is not allocated; repairing`);
      }
      d.leaks.delete(port);
    }
  }
  // What is left of the stored bitmap is held by no Service.
  for (let i = 0; i < storedBits.length; i++) {
    if (!storedBits[i]) continue;
    const port = storedBase + i;
    const count = d.leaks.get(port);
    if (count === undefined || count > 0) {
      if (count === undefined) d.log.error(`the node port ${port} may have leaked: flagging for later clean up`);
      d.leaks.set(port, (count ?? repairsBeforeLeakCleanup - 1) - 1);
      if (portRangeContains(range, port)) rebuilt[port - range.base] = 1;
      else d.log.error(`the node port ${port} may have leaked, but can not be allocated: provided port is not in the valid range. The range of valid ports is ${rangeText}`);
    } else {
      d.log.error(`the node port ${port} appears to have leaked: cleaning up`);
    }
  }
  await d.allocator.replace(snap.resourceVersion, rebuilt);
}

/** One repair pass, started again when the bitmap changed under it (kube's RetryOnConflict). */
export async function repairNodePorts(d: NodePortRepairDeps): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await runOnce(d);
      return;
    } catch (err) {
      if (!isStorageError(err, 'Conflict') || attempt >= 4) throw err;
    }
  }
}
