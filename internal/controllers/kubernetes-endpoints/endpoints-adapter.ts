/**
 * Reads and writes the kubernetes Service's Endpoints and EndpointSlice together, as kube's
 * EndpointsAdapter does: the Endpoints carry the skip-mirror label (the mirroring controller leaves
 * them alone), the EndpointSlice `kubernetes` carries kubernetes.io/service-name, every address is
 * ready, addresses are sorted, and either object is written only when it differs.
 */
import { isIPv4 } from 'node:net';
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { ResourceClient } from '../resource-client.js';
import type { EndpointPort } from './interface.js';

const namespace = 'default';
const name = 'kubernetes';
/** kube's discovery.LabelSkipMirror and discovery.LabelServiceName. */
const skipMirrorLabel = 'endpointslice.kubernetes.io/skip-mirror';
const serviceNameLabel = 'kubernetes.io/service-name';

/** The two clients the adapter writes through. */
export interface EndpointsClients {
  readonly endpoints: ResourceClient;
  readonly endpointSlices: ResourceClient;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Conflict and AlreadyExists mean another server wrote first: read again and retry (kube's isRetriableError). */
async function retrying(fn: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= 4 || !(hasReason(err, 'Conflict') || hasReason(err, 'AlreadyExists'))) throw err;
      await new Promise((r) => setTimeout(r, 10 * 2 ** attempt));
    }
  }
}

async function getOrUndefined(client: ResourceClient): Promise<KubeObject | undefined> {
  try {
    return await client.get(name, namespace);
  } catch (err) {
    if (hasReason(err, 'NotFound')) return undefined;
    throw err;
  }
}

/** The Endpoints and EndpointSlice of default/kubernetes. */
export class EndpointsAdapter {
  constructor(private readonly clients: EndpointsClients) {}

  /** The addresses the EndpointSlice lists now (empty when it does not exist). */
  async get(): Promise<Set<string>> {
    const slice = await getOrUndefined(this.clients.endpointSlices);
    const ips = new Set<string>();
    for (const ep of (slice?.endpoints as Array<{ addresses?: string[] }> | undefined) ?? []) for (const a of ep.addresses ?? []) ips.add(a);
    return ips;
  }

  /** Writes ips (IPv4 only: the Service is single-stack IPv4) with ports into both objects where they differ. */
  async sync(ips: Iterable<string>, ports: readonly EndpointPort[], reconcilePorts: boolean): Promise<void> {
    const sorted = [...new Set(ips)].filter((ip) => isIPv4(ip)).sort();
    await retrying(() => this.syncEndpoints(sorted, ports, reconcilePorts));
    await retrying(() => this.syncSlice(sorted, ports, reconcilePorts));
  }

  private async syncEndpoints(ips: readonly string[], ports: readonly EndpointPort[], reconcilePorts: boolean): Promise<void> {
    const current = await getOrUndefined(this.clients.endpoints);
    const want = structuredClone(current) ?? ({ kind: 'Endpoints', apiVersion: 'v1', metadata: { name, namespace } } as KubeObject);
    want.metadata.labels = { [skipMirrorLabel]: 'true' };
    let subsets = want.subsets as Array<Record<string, unknown>> | undefined;
    if (!Array.isArray(subsets) || subsets.length !== 1) subsets = [{}];
    const subset = subsets[0] as Record<string, unknown>;
    subset.addresses = ips.map((ip) => ({ ip }));
    const havePorts = subset.ports as unknown[] | undefined;
    if (!havePorts || havePorts.length === 0 || (reconcilePorts && !same(havePorts, ports))) subset.ports = ports.map((p) => ({ ...p }));
    want.subsets = subsets;
    if (!current) {
      await this.clients.endpoints.create(want);
    } else if (!same(current.subsets, want.subsets) || !same(current.metadata.labels, want.metadata.labels)) {
      await this.clients.endpoints.update(name, namespace, (live) => {
        return { ...live, metadata: { ...live.metadata, labels: want.metadata.labels }, subsets: want.subsets };
      });
    }
  }

  private async syncSlice(ips: readonly string[], ports: readonly EndpointPort[], reconcilePorts: boolean): Promise<void> {
    const current = await getOrUndefined(this.clients.endpointSlices);
    const want =
      structuredClone(current) ?? ({ kind: 'EndpointSlice', apiVersion: 'discovery.k8s.io/v1', metadata: { name, namespace } } as KubeObject);
    want.metadata.labels = { [serviceNameLabel]: name };
    want.addressType = 'IPv4';
    want.endpoints = ips.map((ip) => ({ addresses: [ip], conditions: { ready: true } }));
    const slicePorts = ports.map((p) => ({ name: p.name, protocol: p.protocol, port: p.port }));
    const havePorts = want.ports as unknown[] | undefined;
    if (!havePorts || havePorts.length === 0 || (reconcilePorts && !same(havePorts, slicePorts))) want.ports = slicePorts;
    if (!current) {
      await this.clients.endpointSlices.create(want);
    } else if (current.addressType !== 'IPv4') {
      // addressType is immutable: a slice of the other family is replaced (kube deletes "other" slices).
      await this.clients.endpointSlices.delete(name, namespace);
      await this.clients.endpointSlices.create({ ...want, metadata: { name, namespace, labels: want.metadata.labels } });
    } else if (!same(current.endpoints, want.endpoints) || !same(current.ports, want.ports) || !same(current.metadata.labels, want.metadata.labels)) {
      await this.clients.endpointSlices.update(name, namespace, (live) => {
        return { ...live, metadata: { ...live.metadata, labels: want.metadata.labels }, endpoints: want.endpoints, ports: want.ports };
      });
    }
  }
}
