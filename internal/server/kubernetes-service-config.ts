/**
 * Where the default/kubernetes Service and its Endpoints point, from the options: the first
 * cluster IP of --service-cluster-ip-range, the bound port, the advertised address and the
 * --endpoint-reconciler-type reconciler that keeps several servers' addresses in them.
 */
import type { Etcd3 } from 'etcd3';
import { buildEndpointReconciler } from '../controllers/kubernetes-endpoints/build.js';
import { chooseAdvertiseAddress, type KubernetesServiceConfig } from '../controllers/kubernetes-service.js';
import type { RestStorage } from '../registry/interface.js';
import { apiServerServiceIP, parseServiceClusterIPRanges } from '../registry/core/services/service-cidr.js';
import { codecForMediaType } from '../storage/codec.js';
import { LeaseManager } from '../storage/etcd3/lease-manager.js';
import type { ServerOptions } from './options/flags.js';
import { defaultEndpointReconcilerOptions } from './options/endpoint-reconciler.js';
import { defaultStorageLeaseOptions } from './options/storage-leases.js';

/** The stores and client the reconciler writes through. */
export interface KubernetesServiceDeps {
  readonly endpoints: RestStorage;
  readonly endpointSlices: RestStorage;
  readonly client: Etcd3;
  readonly boundPort: number;
}

/** Builds the kubernetes Service's configuration. */
export function kubernetesServiceConfig(options: ServerOptions, deps: KubernetesServiceDeps): KubernetesServiceConfig {
  const reconcilerOptions = options.endpointReconciler ?? defaultEndpointReconcilerOptions;
  const ttlSeconds = options.controlPlaneTuning?.endpointReconcilerTTLSeconds;
  return {
    clusterIP: apiServerServiceIP(parseServiceClusterIPRanges(options.serviceClusterIPRange)),
    securePort: deps.boundPort,
    advertiseAddress: chooseAdvertiseAddress(options.advertiseAddress, options.bindAddress),
    reconciler: buildEndpointReconciler({
      type: reconcilerOptions.type,
      apiserverCount: reconcilerOptions.apiserverCount,
      endpoints: deps.endpoints,
      endpointSlices: deps.endpointSlices,
      client: deps.client,
      leaseManager: new LeaseManager(deps.client, (options.storageLeases ?? defaultStorageLeaseOptions).reuseDurationSeconds),
      codec: codecForMediaType(options.storageMediaType),
      prefix: options.etcdPrefix,
      ...(ttlSeconds ? { ttlSeconds } : {}),
    }),
  };
}
