/**
 * The endpoint reconciler --endpoint-reconciler-type names (kube's createEndpointReconciler):
 * lease (addresses with a TTL in etcd, kube's 15 s), master-count (--apiserver-count), or none
 * (undefined: the Endpoints are left alone).
 */
import type { Etcd3 } from 'etcd3';
import type { RestStorage } from '../../registry/interface.js';
import type { StorageCodec } from '../../storage/codec.js';
import type { LeaseManager } from '../../storage/etcd3/lease-manager.js';
import { ResourceClient } from '../resource-client.js';
import { EndpointsAdapter } from './endpoints-adapter.js';
import { InstanceCountEndpointReconciler } from './instance-count-reconciler.js';
import type { EndpointReconciler, EndpointReconcilerType } from './interface.js';
import { LeaseEndpointReconciler } from './lease-reconciler.js';
import { MasterLeases } from './master-leases.js';

/** kube's DefaultEndpointReconcilerInterval (10 s). */
export const endpointReconcileIntervalMs = 10_000;
/** kube's DefaultEndpointReconcilerTTL (15 s). */
export const endpointReconcilerTTLSeconds = 15;

/** What a reconciler is built from. */
export interface EndpointReconcilerDeps {
  readonly type: EndpointReconcilerType;
  readonly apiserverCount: number;
  readonly endpoints: RestStorage;
  readonly endpointSlices: RestStorage;
  readonly client: Etcd3;
  /** The server's etcd lease manager (--lease-reuse-duration-seconds). */
  readonly leaseManager: LeaseManager;
  readonly codec: StorageCodec;
  /** --etcd-prefix. */
  readonly prefix: string;
  readonly ttlSeconds?: number;
}

/** The reconciler of the type, or undefined for none. */
export function buildEndpointReconciler(deps: EndpointReconcilerDeps): EndpointReconciler | undefined {
  if (deps.type === 'none') return undefined;
  const adapter = new EndpointsAdapter({
    endpoints: new ResourceClient(deps.endpoints, '', 'endpoints'),
    endpointSlices: new ResourceClient(deps.endpointSlices, 'discovery.k8s.io', 'endpointslices'),
  });
  if (deps.type === 'master-count') return new InstanceCountEndpointReconciler(adapter, deps.apiserverCount);
  const leases = new MasterLeases(deps.client, deps.codec, deps.leaseManager, deps.prefix, deps.ttlSeconds ?? endpointReconcilerTTLSeconds);
  return new LeaseEndpointReconciler(adapter, leases);
}
