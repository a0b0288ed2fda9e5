/**
 * The services store's hooks: a Service that needs a cluster IP gets one allocated before it is
 * stored (the one it names, or a free one), and gives it back when it is deleted, fails to store,
 * or turns into an ExternalName Service.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newInternalError, newInvalid } from '../../../apierrors/factories.js';
import { noFinish, type FinishFunc, type StoreHooks } from '../../generic/hooks.js';
import type { JsonObject } from '../shared/json-value.js';
import { needsClusterIP } from '../shared/service-spec.js';
import { ClusterIPAllocator, IPAllocationError } from './ip-allocator.js';

type Spec = Record<string, unknown>;

function specOf(obj: KubeObject): Spec {
  if (typeof obj.spec !== 'object' || obj.spec === null) obj.spec = {};
  return obj.spec as Spec;
}

function allocatedIPs(obj: KubeObject): string[] {
  const spec = (obj.spec ?? {}) as Spec;
  if (!needsClusterIP(spec as JsonObject)) return [];
  const ips = Array.isArray(spec.clusterIPs) ? (spec.clusterIPs as unknown[]) : [spec.clusterIP];
  return ips.filter((ip): ip is string => typeof ip === 'string' && ip !== '' && ip !== 'None');
}

async function assign(allocator: ClusterIPAllocator, obj: KubeObject, dryRun: boolean): Promise<FinishFunc> {
  const spec = specOf(obj);
  if (!needsClusterIP(spec as JsonObject)) return noFinish;
  const family = allocator.range.family === 4 ? 'IPv4' : 'IPv6';
  const requested = typeof spec.clusterIP === 'string' ? spec.clusterIP : '';
  if (spec.ipFamilies === undefined) spec.ipFamilies = [family];
  if (spec.ipFamilyPolicy === undefined) spec.ipFamilyPolicy = 'SingleStack';
  if (requested === 'None') return noFinish;
  const owner = { namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' };
  let ip: string;
  try {
    ip = requested ? await allocator.allocate(requested, owner, dryRun) : await allocator.allocateNext(owner, dryRun);
  } catch (err) {
    if (!(err instanceof IPAllocationError)) throw err;
    if (err.reason === 'full') throw newInternalError(`failed to allocate a serviceIP: ${err.message}`);
    const bad = `[]string{${JSON.stringify(requested)}}`;
    throw newInvalid('', 'Service', owner.name, [
      { reason: 'FieldValueInvalid', field: 'spec.clusterIPs', message: `Invalid value: ${bad}: ${err.message}`, text: `spec.clusterIPs: Invalid value: ${bad}: ${err.message}` },
    ]);
  }
  spec.clusterIP = ip;
  spec.clusterIPs = [ip];
  return async (stored) => {
    if (!stored && !dryRun) await allocator.release(ip);
  };
}

/** The hooks that keep a Service's cluster IP allocated exactly while the Service holds it. */
export function serviceIPHooks(allocator: ClusterIPAllocator): StoreHooks {
  return {
    beginCreate: (_ctx, obj, dryRun) => assign(allocator, obj, dryRun),
    async beginUpdate(_ctx, obj, old, dryRun) {
      const oldNeeds = needsClusterIP((old.spec ?? {}) as JsonObject);
      const newNeeds = needsClusterIP((obj.spec ?? {}) as JsonObject);
      if (!oldNeeds && newNeeds) return await assign(allocator, obj, dryRun);
      if (oldNeeds && !newNeeds) {
        const freed = allocatedIPs(old);
        return async (stored) => {
          if (stored && !dryRun) for (const ip of freed) await allocator.release(ip);
        };
      }
      return noFinish;
    },
    async afterDelete(_ctx, obj) {
      for (const ip of allocatedIPs(obj)) await allocator.release(ip);
    },
  };
}
