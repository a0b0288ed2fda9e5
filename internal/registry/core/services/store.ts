/**
 * The services resource (core/v1), stored under /services/specs/<namespace>/<name> as kube lays
 * it out, with services/status; cluster IPs are allocated from --service-cluster-ip-range. The
 * proxy subresource comes with the proxy work.
 */
import type { ResourceModule } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import { StatusStore } from '../../generic/status-store.js';
import { defaultService } from './defaults.js';
import { serviceIPHooks } from './allocation.js';
import { ClusterIPAllocator } from './ip-allocator.js';
import { serviceStatusStrategy, serviceStrategy } from './strategy.js';

/** Builds the services registration. */
export const servicesModule: ResourceModule = (deps) => {
  const allocator = new ClusterIPAllocator(deps.storage, deps.serviceClusterIPRange);
  const store = new GenericStore(
    { group: '', resource: 'services', kind: 'Service', keyPrefix: '/services/specs' },
    serviceStrategy,
    deps.storage,
    serviceIPHooks(allocator),
    deps.storeSettings,
  );
  return [
    {
      group: '',
      version: 'v1',
      resource: 'services',
      namespaced: true,
      main: store,
      subresources: { status: new StatusStore(store, serviceStatusStrategy) },
      selectableFields: serviceStrategy.selectableFields,
      defaulter: defaultService,
    },
  ];
};
