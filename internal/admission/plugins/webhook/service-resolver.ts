/**
 * Resolves a webhook's service reference to an address to dial, as kube-apiserver's endpoint
 * routing does: the Service (by port), then a ready address of its Endpoints (or, without
 * Endpoints, of its EndpointSlices) on the target port named like the service port. ExternalName
 * services dial their external name. The TLS server name stays "<service>.<namespace>.svc".
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { SharedInformers } from '../../../controllers/shared-informers.js';

/** Where to connect. */
export interface ResolvedAddress {
  readonly host: string;
  readonly port: number;
}

interface ServicePort {
  name?: string;
  port?: number;
}

interface EndpointSubset {
  addresses?: Array<{ ip?: string }>;
  ports?: Array<{ name?: string; port?: number }>;
}

interface EndpointSlice extends KubeObject {
  addressType?: string;
  endpoints?: Array<{ addresses?: string[]; conditions?: { ready?: boolean | null } }>;
  ports?: Array<{ name?: string | null; port?: number }>;
}

function pick<T>(items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(Math.random() * items.length)];
}

/** Resolves services through shared informers. */
export class ServiceResolver {
  constructor(private readonly informers: SharedInformers) {}

  private async synced(group: string, resource: string) {
    const informer = this.informers.get(group, resource);
    if (!informer.hasSynced()) await informer.synced;
    return informer;
  }

  /** The address for namespace/name:port; throws an Error with kube's text when there is none. */
  async resolve(namespace: string, name: string, port: number): Promise<ResolvedAddress> {
    const services = await this.synced('', 'services');
    const svc = services.get(`${namespace}/${name}`) as (KubeObject & { spec?: { type?: string; ports?: ServicePort[]; externalName?: string } }) | undefined;
    if (!svc) throw new Error(`service "${name}" not found`);
    const spec = svc.spec ?? {};
    if (spec.type === 'ExternalName') return { host: spec.externalName ?? '', port };
    const svcPort = (spec.ports ?? []).find((p) => p.port === port);
    if (!svcPort) throw new Error(`no service port ${port} found for service "${name}"`);
    const type = spec.type ?? 'ClusterIP';
    if (type !== 'ClusterIP' && type !== 'NodePort' && type !== 'LoadBalancer') throw new Error(`unsupported service type "${type}"`);
    const portName = svcPort.name ?? '';
    const endpoints = (await this.synced('', 'endpoints')).get(`${namespace}/${name}`) as (KubeObject & { subsets?: EndpointSubset[] }) | undefined;
    if (endpoints) return this.fromEndpoints(name, portName, endpoints.subsets ?? []);
    return this.fromSlices(namespace, name, portName);
  }

  private fromEndpoints(name: string, portName: string, subsets: readonly EndpointSubset[]): ResolvedAddress {
    let targetPort = -1;
    for (const ss of subsets) {
      const p = (ss.ports ?? []).find((x) => (x.name ?? '') === portName);
      if (p?.port !== undefined) {
        targetPort = p.port;
        break;
      }
    }
    if (targetPort < 0) throw new Error(`no service port "${portName}" found for service "${name}"`);
    const ips = subsets.flatMap((ss) => ((ss.ports ?? []).some((x) => (x.name ?? '') === portName) ? (ss.addresses ?? []).map((a) => a.ip ?? '').filter(Boolean) : []));
    const ip = pick(ips);
    if (!ip) throw new Error(`no endpoints available for service "${name}"`);
    return { host: ip, port: targetPort };
  }

  private async fromSlices(namespace: string, name: string, portName: string): Promise<ResolvedAddress> {
    const slices = await this.synced('discovery.k8s.io', 'endpointslices');
    const candidates: ResolvedAddress[] = [];
    let portSeen = false;
    for (const obj of slices.list()) {
      const slice = obj as EndpointSlice;
      if (slice.metadata.namespace !== namespace || slice.metadata.labels?.['kubernetes.io/service-name'] !== name) continue;
      const p = (slice.ports ?? []).find((x) => (x.name ?? '') === portName);
      if (p?.port === undefined) continue;
      portSeen = true;
      for (const ep of slice.endpoints ?? []) {
        // A nil ready condition means ready (kube's EndpointConditions).
        if (ep.conditions?.ready === false) continue;
        for (const address of ep.addresses ?? []) candidates.push({ host: address, port: p.port });
      }
    }
    if (!portSeen && candidates.length === 0) throw new Error(`no endpoints available for service "${name}"`);
    const chosen = pick(candidates);
    if (!chosen) throw new Error(`no endpoints available for service "${name}"`);
    return chosen;
  }
}
