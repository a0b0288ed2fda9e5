/**
 * The endpoints resource (core/v1), stored under /services/endpoints/<namespace>/<name> as kube
 * lays it out.
 */
import type { ResourceModule } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import { defaultEndpoints } from './defaults.js';
import { endpointsStrategy } from './strategy.js';

/** Builds the endpoints registration. */
export const endpointsModule: ResourceModule = (deps) => {
  const store = new GenericStore(
    { group: '', resource: 'endpoints', kind: 'Endpoints', keyPrefix: '/services/endpoints' },
    endpointsStrategy,
    deps.storage,
    {},
    deps.storeSettings,
  );
  return [
    {
      group: '',
      version: 'v1',
      resource: 'endpoints',
      namespaced: true,
      main: store,
      subresources: {},
      selectableFields: endpointsStrategy.selectableFields,
      defaulter: defaultEndpoints,
    },
  ];
};
