/**
 * Where a conversion webhook's service reference is resolved from: the Service, Endpoints and
 * EndpointSlices read from storage (the server's own stores, the same data kube's resolvers read
 * from their informers), routed to an endpoint address or to the cluster IP.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import {
  resolveClusterAddress,
  resolveEndpointAddress,
  type AddressResolver,
  type ServiceObjectSource,
} from '../../admission/plugins/webhook/service-resolver.js';
import { listEverything, type RestStorage } from '../../registry/interface.js';
import { internalContext } from '../../request/context.js';
import { labelSelectorFromSet } from '../../selectors/labels.js';

/** Finds a resource's storage (the server's storageOf). */
export type StorageLookup = (group: string, resource: string, subresource?: string) => RestStorage | undefined;

/**
 * How service references are dialed: "endpoint" (kube's --enable-aggregator-routing=true, and what
 * Capstan's admission webhooks do, since without kube-proxy no cluster IP answers) or
 * "cluster-ip" (kube's default).
 */
export type ServiceRouting = 'endpoint' | 'cluster-ip';

async function getOrUndefined(storageOf: StorageLookup, group: string, resource: string, namespace: string, name: string): Promise<KubeObject | undefined> {
  const storage = storageOf(group, resource);
  if (!storage?.get) return undefined;
  try {
    return await storage.get(internalContext({ verb: 'get', group, resource, namespace, name }), name, { resourceVersion: '' });
  } catch (err) {
    if (hasReason(err, 'NotFound')) return undefined;
    throw err;
  }
}

/** The Service objects of a reference, read from storage. */
export function storageServiceSource(storageOf: StorageLookup): ServiceObjectSource {
  return {
    service: (namespace, name) => getOrUndefined(storageOf, '', 'services', namespace, name),
    endpoints: (namespace, name) => getOrUndefined(storageOf, '', 'endpoints', namespace, name),
    endpointSlices: async (namespace, name) => {
      const storage = storageOf('discovery.k8s.io', 'endpointslices');
      if (!storage?.list) return [];
      const ctx = internalContext({ verb: 'list', group: 'discovery.k8s.io', resource: 'endpointslices', namespace });
      const page = await storage.list(ctx, { ...listEverything, labelSelector: labelSelectorFromSet({ 'kubernetes.io/service-name': name }) });
      return page.items;
    },
  };
}

/** A resolver of service references over storage with the given routing. */
export function storageAddressResolver(storageOf: StorageLookup, routing: ServiceRouting): AddressResolver {
  const source = storageServiceSource(storageOf);
  const resolve = routing === 'cluster-ip' ? resolveClusterAddress : resolveEndpointAddress;
  return { resolve: (namespace, name, port) => resolve(source, namespace, name, port) };
}
