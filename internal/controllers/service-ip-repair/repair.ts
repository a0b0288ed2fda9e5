/**
 * kube 1.33's ipallocator-repair-controller (pkg/registry/core/service/ipallocator/controller/
 * repairip.go) as one pass over every Service and IPAddress: a Service's cluster IP without its
 * IPAddress gets one, an IPAddress pointing elsewhere is recreated or reported, and an IPAddress
 * the allocator made whose Service is gone is deleted once it is older than the grace period
 * (kube's 60 s, so an address whose Service is still being created is never taken away). Every
 * finding is logged and recorded as kube's event.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { Logger } from '../../observability/logging.js';
import { ipAddressObject, ipAllocatorName, ipFamilyLabel, managedByLabel } from '../../registry/core/services/ip-allocator.js';
import { canonicalIP, cidrContains, familyOfIP, parseCIDR, type IPFamily, type ServiceCIDR } from '../../registry/core/services/service-cidr.js';
import type { EventRecorder } from '../event-recorder.js';
import type { ResourceClient } from '../resource-client.js';

/** What a pass works with. */
export interface IPRepairDeps {
  readonly services: ResourceClient;
  readonly ipAddresses: ResourceClient;
  readonly serviceCIDRs: ResourceClient | undefined;
  /** The flag's CIDRs (used with the ServiceCIDR objects to tell what is in range). */
  readonly ranges: readonly ServiceCIDR[];
  readonly recorder: EventRecorder;
  readonly log: Logger;
  /** How old an IPAddress without its Service must be before it is freed (kube: 60 s). */
  readonly leakGraceMs: number;
  readonly now?: () => number;
}

const serviceRef = { kind: 'Service', apiVersion: 'v1' };
const ipRef = { kind: 'IPAddress', apiVersion: 'networking.k8s.io/v1' };

type ParentRef = { group?: string; resource?: string; namespace?: string; name?: string };
const parentOf = (ip: KubeObject): ParentRef => ((ip.spec as { parentRef?: ParentRef } | undefined)?.parentRef ?? {});
const clusterIPsOf = (svc: KubeObject): string[] => ((svc.spec as { clusterIPs?: string[] } | undefined)?.clusterIPs ?? []).map(String);

/** helper.IsServiceIPSet: a cluster IP that is neither empty nor None. */
function ipSet(svc: KubeObject): boolean {
  const spec = (svc.spec ?? {}) as { clusterIP?: string; type?: string };
  return spec.type !== 'ExternalName' && !!spec.clusterIP && spec.clusterIP !== 'None';
}

/** Go's %v of a ParentReference pointer: &{group resource namespace name}. */
const refText = (r: ParentRef): string => `&{${r.group ?? ''} ${r.resource ?? ''} ${r.namespace ?? ''} ${r.name ?? ''}}`;

async function cidrsInUse(d: IPRepairDeps): Promise<ServiceCIDR[]> {
  const out = [...d.ranges];
  if (!d.serviceCIDRs) return out;
  for (const obj of await d.serviceCIDRs.list()) {
    for (const c of ((obj.spec as { cidrs?: string[] } | undefined)?.cidrs ?? [])) {
      const parsed = parseCIDR(String(c));
      if (parsed) out.push(parsed);
    }
  }
  return out;
}

async function getIP(d: IPRepairDeps, name: string): Promise<KubeObject | undefined> {
  try {
    return await d.ipAddresses.get(name);
  } catch (err) {
    if (hasReason(err, 'NotFound')) return undefined;
    throw err;
  }
}

async function getService(d: IPRepairDeps, namespace: string, name: string): Promise<KubeObject | undefined> {
  try {
    return await d.services.get(name, namespace);
  } catch (err) {
    if (hasReason(err, 'NotFound')) return undefined;
    throw err;
  }
}

async function createIP(d: IPRepairDeps, ip: string, family: IPFamily, svc: KubeObject): Promise<void> {
  const obj = ipAddressObject(ip, family, { namespace: svc.metadata.namespace ?? '', name: svc.metadata.name ?? '' });
  try {
    await d.ipAddresses.create({ ...obj, apiVersion: 'networking.k8s.io/v1', metadata: { name: ip, labels: obj.metadata.labels ?? {} } });
  } catch (err) {
    if (!hasReason(err, 'AlreadyExists')) throw err;
  }
}

async function recreateIP(d: IPRepairDeps, ip: string, family: IPFamily, svc: KubeObject): Promise<void> {
  try {
    await d.ipAddresses.delete(ip);
  } catch (err) {
    if (!hasReason(err, 'NotFound')) throw err;
  }
  await createIP(d, ip, family, svc);
}

async function syncService(d: IPRepairDeps, svc: KubeObject, byName: Map<string, KubeObject>, services: Map<string, KubeObject>, cidrs: ServiceCIDR[]): Promise<void> {
  const key = `${svc.metadata.namespace ?? ''}/${svc.metadata.name ?? ''}`;
  for (const raw of clusterIPsOf(svc)) {
    const ip = canonicalIP(raw);
    const family = ip ? familyOfIP(ip) : undefined;
    if (!ip || !family) {
      await d.recorder.event(svc, serviceRef, 'Warning', 'ClusterIPNotValid', `Cluster IP ${raw} is not a valid IP; please recreate Service`, 'ClusterIPValidation');
      d.log.error(`the ClusterIP ${raw} for Service ${key} is not a valid IP; please recreate Service`);
      continue;
    }
    if (!cidrs.some((c) => cidrContains(c, ip))) {
      await d.recorder.event(svc, serviceRef, 'Warning', 'ClusterIPOutOfRange', `Cluster IP [${family}]: ${ip} is not within any configured Service CIDR; please recreate service`, 'ClusterIPAllocation');
      d.log.error(`the ClusterIP [${family}]: ${ip} for Service ${key} is not within any service CIDR; please recreate`);
      continue;
    }
    // The list may predate the Service: look again before calling the address missing.
    const address = byName.get(ip) ?? (await getIP(d, ip));
    if (!address) {
      await d.recorder.event(svc, serviceRef, 'Warning', 'ClusterIPNotAllocated', `Cluster IP [${family}]: ${ip} is not allocated; repairing`, 'ClusterIPAllocation');
      d.log.error(`the ClusterIP [${family}]: ${ip} for Service ${key} is not allocated; repairing`);
      await createIP(d, ip, family, svc);
      continue;
    }
    const parent = parentOf(address);
    if ((parent.group ?? '') !== '' || parent.resource !== 'services') {
      await d.recorder.event(svc, serviceRef, 'Warning', 'ClusterIPNotAllocated', `the ClusterIP [${family}]: ${ip} for Service ${key} has a wrong reference; repairing`, 'ClusterIPAllocation');
      await recreateIP(d, ip, family, svc);
      continue;
    }
    if (parent.namespace !== svc.metadata.namespace || parent.name !== svc.metadata.name) {
      const other = services.get(`${parent.namespace ?? ''}/${parent.name ?? ''}`);
      if (!other) {
        await d.recorder.event(svc, serviceRef, 'Warning', 'ClusterIPNotAllocated', `the ClusterIP [${family}]: ${ip} for Service ${key} has a wrong reference; repairing`, 'ClusterIPAllocation');
        await recreateIP(d, ip, family, svc);
        continue;
      }
      if (clusterIPsOf(other).includes(ip)) {
        await d.recorder.event(svc, serviceRef, 'Warning', 'ClusterIPAlreadyAllocated', `Cluster IP [${family}]:${ip} was assigned to multiple services; please recreate service`, 'ClusterIPAllocation');
        d.log.error(`the cluster IP [${family}]:${ip} for service ${key} was assigned to other services ${parent.namespace ?? ''}/${parent.name ?? ''}; please recreate`);
      }
    }
    const labels = address.metadata.labels ?? {};
    if (labels[ipFamilyLabel] !== family || labels[managedByLabel] !== ipAllocatorName) await recreateIP(d, ip, family, svc);
  }
}

async function syncIPAddress(d: IPRepairDeps, address: KubeObject, services: Map<string, KubeObject>): Promise<void> {
  if (address.metadata.labels?.[managedByLabel] !== ipAllocatorName) return;
  const name = address.metadata.name ?? '';
  const parent = parentOf(address);
  const remove = async (): Promise<void> => {
    try {
      await d.ipAddresses.delete(name, '', address.metadata.uid ? { uid: address.metadata.uid } : undefined);
    } catch (err) {
      if (!hasReason(err, 'NotFound') && !hasReason(err, 'Conflict')) throw err;
    }
  };
  if ((parent.group ?? '') !== '' || parent.resource !== 'services') {
    d.log.error(`IPAddress ${name} appears to have been modified, not referencing a Service ${refText(parent)}: cleaning up`);
    await d.recorder.event(address, ipRef, 'Warning', 'IPAddressNotAllocated', `IPAddress ${name} appears to have been modified, not referencing a Service ${refText(parent)}: cleaning up`, 'IPAddressAllocation');
    await remove();
    return;
  }
  const svc = services.get(`${parent.namespace ?? ''}/${parent.name ?? ''}`);
  if (!svc) {
    const age = (d.now ?? Date.now)() - Date.parse(address.metadata.creationTimestamp ?? '');
    if (!(age > d.leakGraceMs)) return;
    // The Service list is a moment old: a Service stored since then is no leak.
    if (await getService(d, parent.namespace ?? '', parent.name ?? '')) return;
    d.log.error(`IPAddress ${name} appears to have leaked: cleaning up`);
    await d.recorder.event(address, ipRef, 'Warning', 'IPAddressNotAllocated', `IPAddress: ${name} for Service ${parent.namespace ?? ''}/${parent.name ?? ''} appears to have leaked: cleaning up`, 'IPAddressAllocation');
    await remove();
    return;
  }
  if (clusterIPsOf(svc).includes(name)) return;
  d.log.error(`the IPAddress: ${name} for Service ${svc.metadata.name ?? ''}/${svc.metadata.namespace ?? ''} has a wrong reference ${refText(parent)}; cleaning up`);
  await d.recorder.event(address, ipRef, 'Warning', 'IPAddressWrongReference', `IPAddress: ${name} for Service ${svc.metadata.namespace ?? ''}/${svc.metadata.name ?? ''} has a wrong reference; cleaning up`, 'IPAddressAllocation');
  await remove();
}

/** One repair pass: every Service against the IPAddresses, then every IPAddress against the Services. */
export async function repairClusterIPs(d: IPRepairDeps): Promise<void> {
  // Addresses first: one made after this list cannot look leaked, whatever the Services say.
  const addresses = await d.ipAddresses.list();
  const serviceList = await d.services.list();
  const services = new Map(serviceList.map((s) => [`${s.metadata.namespace ?? ''}/${s.metadata.name ?? ''}`, s]));
  const byName = new Map(addresses.map((a) => [a.metadata.name ?? '', a]));
  const cidrs = await cidrsInUse(d);
  for (const svc of serviceList) if (ipSet(svc)) await syncService(d, svc, byName, services, cidrs);
  for (const address of addresses) await syncIPAddress(d, address, services);
}
