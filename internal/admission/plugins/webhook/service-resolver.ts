/**
 * Resolves a webhook's service reference to an address to dial, as kube-apiserver's service
 * resolvers do. Endpoint routing (kube's --enable-aggregator-routing=true, what admission webhooks
 * use here since there is no kube-proxy): the Service (by port), then a ready address of its
 * Endpoints (or, without Endpoints, of its EndpointSlices) on the target port named like the
 * service port. Cluster IP routing (kube's default): the Service's cluster IP and port.
 * ExternalName services dial their external name either way. The TLS server name stays
 * "<service>.<namespace>.svc".
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { SharedInformers } from '../../../controllers/shared-informers.js';

/** Where to connect. */
export interface ResolvedAddress {
  readonly host: string;
  readonly port: number;
}

/** Turns a service reference into an address; rejects with an Error in kube's words. */
export interface AddressResolver {
  resolve(namespace: string, name: string, port: number): Promise<ResolvedAddress>;
}

/** Where the Service, Endpoints and EndpointSlices of a reference are read from. */
export interface ServiceObjectSource {
  service(namespace: string, name: string): Promise<KubeObject | undefined>;
  endpoints(namespace: string, name: string): Promise<KubeObject | undefined>;
  /** The EndpointSlices labelled kubernetes.io/service-name=name in namespace. */
  endpointSlices(namespace: string, name: string): Promise<readonly KubeObject[]>;
}

interface ServicePort {
  name?: string;
  port?: number;
}

interface ServiceSpec {
  type?: string;
  ports?: ServicePort[];
  externalName?: string;
  clusterIP?: string;
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

async function serviceSpec(source: ServiceObjectSource, namespace: string, name: string): Promise<ServiceSpec> {
  const svc = (await source.service(namespace, name)) as (KubeObject & { spec?: ServiceSpec }) | undefined;
  if (!svc) throw new Error(`service "${name}" not found`);
  return svc.spec ?? {};
}

function servicePort(spec: ServiceSpec, name: string, port: number): ServicePort {
  const svcPort = (spec.ports ?? []).find((p) => p.port === port);
  if (!svcPort) throw new Error(`no service port ${port} found for service "${name}"`);
  return svcPort;
}

/** kube's ResolveEndpoint: an address of the service's endpoints. */
export async function resolveEndpointAddress(source: ServiceObjectSource, namespace: string, name: string, port: number): Promise<ResolvedAddress> {
  const spec = await serviceSpec(source, namespace, name);
  if (spec.type === 'ExternalName') return { host: spec.externalName ?? '', port };
  const svcPort = servicePort(spec, name, port);
  const type = spec.type ?? 'ClusterIP';
  if (type !== 'ClusterIP' && type !== 'NodePort' && type !== 'LoadBalancer') throw new Error(`unsupported service type "${type}"`);
  const portName = svcPort.name ?? '';
  const endpoints = (await source.endpoints(namespace, name)) as (KubeObject & { subsets?: EndpointSubset[] }) | undefined;
  if (endpoints) return fromEndpoints(name, portName, endpoints.subsets ?? []);
  return fromSlices(await source.endpointSlices(namespace, name), name, portName);
}

/** kube's ResolveCluster: the service's cluster IP (or external name) and port. */
export async function resolveClusterAddress(source: ServiceObjectSource, namespace: string, name: string, port: number): Promise<ResolvedAddress> {
  const spec = await serviceSpec(source, namespace, name);
  const type = spec.type ?? 'ClusterIP';
  if (type === 'ClusterIP' && spec.clusterIP === 'None') throw new Error('cannot route to service with ClusterIP "None"');
  if (type === 'ClusterIP' || type === 'NodePort' || type === 'LoadBalancer') {
    const svcPort = servicePort(spec, name, port);
    return { host: spec.clusterIP ?? '', port: svcPort.port ?? port };
  }
  if (type === 'ExternalName') return { host: spec.externalName ?? '', port };
  throw new Error(`unsupported service type "${type}"`);
}

function fromEndpoints(name: string, portName: string, subsets: readonly EndpointSubset[]): ResolvedAddress {
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

function fromSlices(slices: readonly KubeObject[], name: string, portName: string): ResolvedAddress {
  const candidates: ResolvedAddress[] = [];
  for (const obj of slices) {
    const slice = obj as EndpointSlice;
    const p = (slice.ports ?? []).find((x) => (x.name ?? '') === portName);
    if (p?.port === undefined) continue;
    for (const ep of slice.endpoints ?? []) {
      // A nil ready condition means ready (kube's EndpointConditions).
      if (ep.conditions?.ready === false) continue;
      for (const address of ep.addresses ?? []) candidates.push({ host: address, port: p.port });
    }
  }
  const chosen = pick(candidates);
  if (!chosen) throw new Error(`no endpoints available for service "${name}"`);
  return chosen;
}

/** Resolves services to endpoint addresses through shared informers (the admission webhooks' resolver). */
export class ServiceResolver implements AddressResolver {
  private readonly source: ServiceObjectSource;

  constructor(informers: SharedInformers) {
    const synced = async (group: string, resource: string) => {
      const informer = informers.get(group, resource);
      if (!informer.hasSynced()) await informer.synced;
      return informer;
    };
    this.source = {
      service: async (namespace, name) => (await synced('', 'services')).get(`${namespace}/${name}`) as KubeObject | undefined,
      endpoints: async (namespace, name) => (await synced('', 'endpoints')).get(`${namespace}/${name}`) as KubeObject | undefined,
      endpointSlices: async (namespace, name) => {
        const out: KubeObject[] = [];
        for (const obj of (await synced('discovery.k8s.io', 'endpointslices')).list()) {
          const slice = obj as KubeObject;
          if (slice.metadata.namespace === namespace && slice.metadata.labels?.['kubernetes.io/service-name'] === name) out.push(slice);
        }
        return out;
      },
    };
  }

  /** The address for namespace/name:port; throws an Error with kube's text when there is none. */
  resolve(namespace: string, name: string, port: number): Promise<ResolvedAddress> {
    return resolveEndpointAddress(this.source, namespace, name, port);
  }
}
