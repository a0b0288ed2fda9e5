/**
 * The pods resource (core/v1), stored under /pods/<namespace>/<name>, with pods/status and
 * pods/ephemeralcontainers. The other pod subresources (binding, eviction, log, exec, ...) need
 * the node agent and come later.
 */
import type { ResourceModule } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import { StatusStore } from '../../generic/status-store.js';
import { defaultPodObject } from './defaults.js';
import { podEphemeralContainersStrategy } from './ephemeral-containers.js';
import { podStatusStrategy, podStrategy } from './strategy.js';

/** Builds the pods registration. */
export const podsModule: ResourceModule = (deps) => {
  const store = new GenericStore({ group: '', resource: 'pods', kind: 'Pod', keyPrefix: '/pods' }, podStrategy, deps.storage, {}, deps.storeSettings);
  return [
    {
      group: '',
      version: 'v1',
      resource: 'pods',
      namespaced: true,
      main: store,
      subresources: {
        status: new StatusStore(store, podStatusStrategy),
        // Only spec.ephemeralContainers gets through, so the status store's shape fits.
        ephemeralcontainers: new StatusStore(store, podEphemeralContainersStrategy),
      },
      selectableFields: podStrategy.selectableFields,
      defaulter: defaultPodObject,
    },
  ];
};
