/**
 * Where a service-backed APIService's requests go (kube-aggregator's service resolvers): the
 * Service's cluster IP and port, or with --enable-aggregator-routing a ready endpoint's IP and
 * port (a random ready endpoint of its EndpointSlices that have the port's name); an ExternalName Service's
 * name either way. The TLS name to verify is "<service>.<namespace>.svc" in every case.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { Informer } from '../controllers/informer.js';
import type { ResolvedBackend, ServiceReference } from './interface.js';

interface ServicePort {
  name?: string;
  port?: number;
}

/** The parts of a discovery.k8s.io/v1 EndpointSlice the aggregator reads. */
export interface EndpointSlice extends KubeObject {
  readonly endpoints?: ReadonlyArray<{ readonly addresses?: readonly string[]; readonly conditions?: { readonly ready?: boolean } }>;
  readonly ports?: ReadonlyArray<{ readonly name?: string; readonly port?: number }>;
}

/** A Service or endpoints lookup failure, with kube's text. */
export class ResolveError extends Error {}

function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

function findServicePort(svc: KubeObject, port: number): ServicePort {
  const ports = ((svc.spec as { ports?: ServicePort[] } | undefined)?.ports ?? []) as ServicePort[];
  const found = ports.find((p) => p.port === port);
  if (!found) throw new ResolveError(`no service port ${port} found for service ${JSON.stringify(svc.metadata.name ?? '')}`);
  return found;
}

/** Resolves APIService services from the Service and Endpoints informers. */
export class ServiceResolver {
  constructor(
    private readonly services: Informer,
    private readonly endpointSlices: Informer,
    private readonly routeToEndpoints: boolean,
  ) {}

  /** The Service of ref, or undefined when it does not exist. */
  service(ref: ServiceReference): KubeObject | undefined {
    return this.services.get(`${ref.namespace}/${ref.name}`);
  }

  /** The EndpointSlices of ref's Service (labelled kubernetes.io/service-name). */
  endpointSlicesOf(ref: ServiceReference): EndpointSlice[] {
    const out: EndpointSlice[] = [];
    for (const obj of this.endpointSlices.list()) {
      if (obj.metadata.namespace === ref.namespace && obj.metadata.labels?.['kubernetes.io/service-name'] === ref.name) out.push(obj as EndpointSlice);
    }
    return out;
  }

  /** Where to send requests for ref; throws ResolveError with kube's message. */
  resolve(ref: ServiceReference): ResolvedBackend {
    const serverName = `${ref.name}.${ref.namespace}.svc`;
    const svc = this.service(ref);
    if (!svc) throw new ResolveError(`service ${JSON.stringify(ref.name)} not found`);
    const spec = (svc.spec ?? {}) as { type?: string; clusterIP?: string; externalName?: string };
    const type = spec.type ?? 'ClusterIP';
    if (type === 'ExternalName') return { host: joinHostPort(spec.externalName ?? '', ref.port), serverName };
    if (type !== 'ClusterIP' && type !== 'NodePort' && type !== 'LoadBalancer') throw new ResolveError(`unsupported service type ${JSON.stringify(type)}`);
    if (!this.routeToEndpoints) {
      if (type === 'ClusterIP' && spec.clusterIP === 'None') throw new ResolveError('cannot route to service with ClusterIP "None"');
      const port = findServicePort(svc, ref.port);
      return { host: joinHostPort(spec.clusterIP ?? '', port.port ?? ref.port), serverName };
    }
    const port = findServicePort(svc, ref.port);
    const candidates: string[] = [];
    for (const slice of this.endpointSlicesOf(ref)) {
      const p = (slice.ports ?? []).find((x) => (x.name ?? '') === (port.name ?? '') && x.port !== undefined);
      if (!p) continue;
      for (const e of slice.endpoints ?? []) {
        if (e.conditions?.ready === false) continue;
        const ip = e.addresses?.[0];
        if (ip) candidates.push(joinHostPort(ip, p.port as number));
      }
    }
    if (candidates.length > 0) return { host: candidates[Math.floor(Math.random() * candidates.length)] as string, serverName };
    throw new ResolveError(`no endpoints available for service ${JSON.stringify(ref.name)}`);
  }
}
