/**
 * The leases resource of coordination.k8s.io/v1, stored under /leases/<namespace>/<name>.
 */
import type { ResourceModule } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import { leaseStrategy } from './strategy.js';

/** Builds the coordination.k8s.io/v1 leases registration. */
export const leasesModule: ResourceModule = (deps) => {
  const store = new GenericStore({ group: 'coordination.k8s.io', resource: 'leases', kind: 'Lease', keyPrefix: '/leases' }, leaseStrategy, deps.storage, {}, deps.storeSettings);
  return [
    {
      group: 'coordination.k8s.io',
      version: 'v1',
      resource: 'leases',
      namespaced: true,
      main: store,
      subresources: {},
      selectableFields: leaseStrategy.selectableFields,
    },
  ];
};
