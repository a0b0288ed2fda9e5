/**
 * The serviceaccounts resource (core/v1), stored under /serviceaccounts/<namespace>/<name>.
 * The token subresource belongs to the authentication work and is not served here.
 */
import type { ResourceModule } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import { serviceAccountStrategy } from './strategy.js';

/** Builds the serviceaccounts registration. */
export const serviceAccountsModule: ResourceModule = (deps) => {
  const store = new GenericStore(
    { group: '', resource: 'serviceaccounts', kind: 'ServiceAccount', keyPrefix: '/serviceaccounts' },
    serviceAccountStrategy,
    deps.storage,
  );
  return [
    {
      group: '',
      version: 'v1',
      resource: 'serviceaccounts',
      namespaced: true,
      main: store,
      subresources: {},
      selectableFields: serviceAccountStrategy.selectableFields,
    },
  ];
};
