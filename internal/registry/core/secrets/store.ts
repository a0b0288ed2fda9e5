/**
 * The secrets resource (core/v1), stored under /secrets/<namespace>/<name>.
 */
import type { ResourceModule } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import { defaultSecret } from './defaults.js';
import { secretStrategy } from './strategy.js';

/** Builds the secrets registration. */
export const secretsModule: ResourceModule = (deps) => {
  const store = new GenericStore({ group: '', resource: 'secrets', kind: 'Secret', keyPrefix: '/secrets' }, secretStrategy, deps.storage, {}, deps.storeSettings);
  return [
    {
      group: '',
      version: 'v1',
      resource: 'secrets',
      namespaced: true,
      main: store,
      subresources: {},
      selectableFields: secretStrategy.selectableFields,
      defaulter: defaultSecret,
    },
  ];
};
