/**
 * The services resource (core/v1), stored under /services/specs/<namespace>/<name> as kube lays
 * it out, with services/status and services/proxy; cluster IPs are allocated from
 * --service-cluster-ip-range (one family or two) and node ports from --service-node-port-range.
 */
import type { ResourceModule } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import { StatusStore } from '../../generic/status-store.js';
import { defaultService } from './defaults.js';
import { serviceAllocationHooks } from './allocation.js';
import { serviceIPAllocators } from './ip-allocator.js';
import { ServiceProxyStorage } from './proxy.js';
import { NodePortAllocator } from './node-port-allocator.js';
import { defaultServiceNodePortRange, parsePortRange } from './port-range.js';
import { parseServiceClusterIPRanges } from './service-cidr.js';
import { serviceStatusStrategy, serviceStrategyFor } from './strategy.js';

/** Builds the services registration. */
export const servicesModule: ResourceModule = (deps) => {
  const ips = serviceIPAllocators(deps.storage, parseServiceClusterIPRanges(deps.serviceClusterIPRange));
  const portRange = deps.serviceNodePortRange ? parsePortRange(deps.serviceNodePortRange) : defaultServiceNodePortRange;
  const nodePorts = new NodePortAllocator(deps.storage, portRange);
  const strategy = serviceStrategyFor({ configured: new Set(ips.byFamily.keys()), defaultFamily: ips.defaultFamily });
  const store = new GenericStore(
    { group: '', resource: 'services', kind: 'Service', keyPrefix: '/services/specs' },
    strategy,
    deps.storage,
    serviceAllocationHooks({ ips, nodePorts }),
    deps.storeSettings,
  );
  return [
    {
      group: '',
      version: 'v1',
      resource: 'services',
      namespaced: true,
      main: store,
      subresources: { status: new StatusStore(store, serviceStatusStrategy), proxy: new ServiceProxyStorage(store, deps.storageOf ?? (() => undefined), deps.proxyBytesPerSec ?? 0) },
      selectableFields: strategy.selectableFields,
      defaulter: defaultService,
    },
  ];
};
