/**
 * The services store's hooks (kube's beginCreate/beginUpdate/afterDelete of the Service REST):
 * the cluster IPs of every family the Service's ipFamilies name (ipFamilies and ipFamilyPolicy
 * were settled by the strategy, see ip-families.ts) and its node ports are allocated before it is
 * stored, given back when the write fails, and released when the Service no longer holds them
 * (deleted, turned ExternalName, downgraded to one family, ports changed).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newInternalError, newInvalid } from '../../../apierrors/factories.js';
import { fieldErrorCause, invalid } from '../../../validation/field-error.js';
import { noFinish, type FinishFunc, type StoreHooks } from '../../generic/hooks.js';
import { arrayAt, ensureObject, stringAt, type JsonObject } from '../shared/json-value.js';
import { IPAllocationError, type IPOwner, type ServiceIPAllocators } from './ip-allocator.js';
import type { NodePortAllocator } from './node-port-allocator.js';
import { allocateCreateNodePorts, allocateUpdateNodePorts, heldNodePorts, PortOperation } from './node-ports.js';
import { familyOfIP, type IPFamily } from './service-cidr.js';

/** What the hooks allocate from. */
export interface ServiceAllocators {
  readonly ips: ServiceIPAllocators;
  readonly nodePorts: NodePortAllocator;
}

const strings = (spec: JsonObject | undefined, key: string): string[] => arrayAt(spec, key).map((v) => (typeof v === 'string' ? v : ''));
const typeOf = (spec: JsonObject | undefined): string => stringAt(spec, 'type') || 'ClusterIP';
const isHeadless = (spec: JsonObject | undefined): boolean => strings(spec, 'clusterIPs')[0] === 'None';
const ownerOf = (obj: KubeObject): IPOwner => ({ namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' });

type Allocated = Map<IPFamily, string>;

async function releaseIPs(al: ServiceAllocators, ips: Allocated): Promise<void> {
  for (const [family, ip] of ips) await al.ips.byFamily.get(family)?.release(ip);
}

/** allocIPs: each family's address (named or free); throws kube's errors, releasing what it took. */
async function allocIPs(al: ServiceAllocators, obj: KubeObject, spec: JsonObject, want: Allocated, dryRun: boolean): Promise<Allocated> {
  const done: Allocated = new Map();
  for (const [family, ip] of want) {
    const allocator = al.ips.byFamily.get(family);
    try {
      if (!allocator) throw new IPAllocationError('mismatched-network', 'the provided network does not match the current range');
      done.set(family, ip === '' ? await allocator.allocateNext(ownerOf(obj), dryRun) : await allocator.allocate(ip, ownerOf(obj), dryRun));
    } catch (err) {
      if (!dryRun) await releaseIPs(al, done);
      if (!(err instanceof IPAllocationError)) throw err;
      if (ip === '') throw newInternalError(`failed to allocate a serviceIP: ${err.message}`);
      throw newInvalid('', 'Service', obj.metadata.name ?? '', [fieldErrorCause(invalid('spec.clusterIPs', strings(spec, 'clusterIPs'), `failed to allocate IP ${ip}: ${err.message}`))]);
    }
  }
  return done;
}

function place(spec: JsonObject, allocated: Allocated): void {
  const ips = strings(spec, 'clusterIPs');
  strings(spec, 'ipFamilies').forEach((family, i) => {
    const ip = allocated.get(family as IPFamily);
    if (ip === undefined) return;
    ips[i] = ip;
    if (i === 0) spec.clusterIP = ip;
  });
  spec.clusterIPs = ips;
}

/** allocClusterIPs: every family of ipFamilies gets the address at its index, or a free one. */
async function allocClusterIPs(al: ServiceAllocators, obj: KubeObject, spec: JsonObject, dryRun: boolean): Promise<Allocated> {
  if (typeOf(spec) === 'ExternalName' || isHeadless(spec)) return new Map();
  const ips = strings(spec, 'clusterIPs');
  const want: Allocated = new Map();
  strings(spec, 'ipFamilies').forEach((family, i) => {
    if (i >= ips.length) ips.push('');
    want.set(family as IPFamily, ips[i] as string);
  });
  spec.clusterIPs = ips;
  const allocated = await allocIPs(al, obj, spec, want, dryRun);
  place(spec, allocated);
  return allocated;
}

/** The addresses a stored Service holds, by family. */
function heldIPs(spec: JsonObject | undefined): Allocated {
  const held: Allocated = new Map();
  if (typeOf(spec) === 'ExternalName' || isHeadless(spec)) return held;
  for (const ip of strings(spec, 'clusterIPs')) {
    const family = familyOfIP(ip);
    if (family) held.set(family, ip);
  }
  return held;
}

/** updateClusterIPs: type changes to and from ExternalName, dual-stack upgrade and downgrade. */
async function updateClusterIPs(al: ServiceAllocators, obj: KubeObject, spec: JsonObject, old: JsonObject, dryRun: boolean): Promise<{ allocated: Allocated; release: Allocated }> {
  const none = { allocated: new Map() as Allocated, release: new Map() as Allocated };
  const type = typeOf(spec);
  const oldType = typeOf(old);
  const sameList = (a: string[], b: string[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);
  // A PreferDualStack Service left as it was is neither upgraded nor downgraded.
  if (
    spec.ipFamilyPolicy === 'PreferDualStack' &&
    (old.ipFamilyPolicy === undefined || old.ipFamilyPolicy === 'PreferDualStack') &&
    type === oldType &&
    type !== 'ExternalName' &&
    sameList(strings(old, 'clusterIPs'), strings(spec, 'clusterIPs')) &&
    sameList(strings(old, 'ipFamilies'), strings(spec, 'ipFamilies'))
  ) {
    return none;
  }
  if (oldType === 'ExternalName' && type !== 'ExternalName') return { allocated: await allocClusterIPs(al, obj, spec, dryRun), release: new Map() };
  if (isHeadless(old)) return none;
  if (oldType !== 'ExternalName' && type === 'ExternalName') return { allocated: new Map(), release: heldIPs(old) };
  const oldFamilies = strings(old, 'ipFamilies');
  const families = strings(spec, 'ipFamilies');
  if (oldFamilies.length === 1 && families.length === 2) {
    const ips = strings(spec, 'clusterIPs');
    if (ips.length < 2) ips.push('');
    spec.clusterIPs = ips;
    const second = families[1] as IPFamily;
    const allocated = await allocIPs(al, obj, spec, new Map([[second, ips[1] as string]]), dryRun);
    ips[1] = allocated.get(second) as string;
    spec.clusterIPs = ips;
    return { allocated, release: new Map() };
  }
  if (oldFamilies.length === 2 && families.length === 1) {
    return { allocated: new Map(), release: new Map([[oldFamilies[1] as IPFamily, strings(old, 'clusterIPs')[1] as string]]) };
  }
  return none;
}

/** The hooks that keep a Service's cluster IPs and node ports allocated exactly while it holds them. */
export function serviceAllocationHooks(al: ServiceAllocators): StoreHooks {
  return {
    async beginCreate(_ctx, obj, dryRun): Promise<FinishFunc> {
      const spec = ensureObject(obj, 'spec');
      const ips = await allocClusterIPs(al, obj, spec, dryRun);
      const op = new PortOperation(al.nodePorts, dryRun);
      try {
        await allocateCreateNodePorts(obj.metadata.name ?? '', spec, op);
      } catch (err) {
        await op.revert();
        if (!dryRun) await releaseIPs(al, ips);
        throw err;
      }
      if (dryRun) return noFinish;
      return async (stored) => {
        if (stored) await op.commit();
        else {
          await op.revert();
          await releaseIPs(al, ips);
        }
      };
    },
    async beginUpdate(_ctx, obj, old, dryRun): Promise<FinishFunc> {
      const spec = ensureObject(obj, 'spec');
      const oldSpec = (old.spec ?? {}) as JsonObject;
      const { allocated, release } = await updateClusterIPs(al, obj, spec, oldSpec, dryRun);
      const op = new PortOperation(al.nodePorts, dryRun);
      try {
        await allocateUpdateNodePorts(obj.metadata.name ?? '', spec, oldSpec, op);
      } catch (err) {
        await op.revert();
        if (!dryRun) await releaseIPs(al, allocated);
        throw err;
      }
      if (dryRun) return noFinish;
      return async (stored) => {
        if (stored) {
          await releaseIPs(al, release);
          await op.commit();
        } else {
          await releaseIPs(al, allocated);
          await op.revert();
        }
      };
    },
    async afterDelete(_ctx, obj) {
      const spec = (obj.spec ?? {}) as JsonObject;
      await releaseIPs(al, heldIPs(spec));
      const ports = heldNodePorts(spec);
      if (ports.length > 0) await al.nodePorts.release(ports);
    },
  };
}
