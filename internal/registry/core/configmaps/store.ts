/**
 * The configmaps resource (core/v1), stored under /configmaps/<namespace>/<name>.
 */
import type { ResourceModule } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import { configMapStrategy } from './strategy.js';

/** Builds the configmaps registration. */
export const configMapsModule: ResourceModule = (deps) => {
  const store = new GenericStore({ group: '', resource: 'configmaps', kind: 'ConfigMap', keyPrefix: '/configmaps' }, configMapStrategy, deps.storage, {}, deps.storeSettings);
  return [
    { group: '', version: 'v1', resource: 'configmaps', namespaced: true, main: store, subresources: {}, selectableFields: configMapStrategy.selectableFields },
  ];
};
