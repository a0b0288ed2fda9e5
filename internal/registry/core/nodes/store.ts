/**
 * The nodes resource (core/v1, cluster-scoped), stored under /minions/<name> as kube lays it out,
 * with nodes/status. The proxy subresource comes with the node agent work.
 */
import type { ResourceModule } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import { StatusStore } from '../../generic/status-store.js';
import { defaultNode } from './defaults.js';
import { nodeStatusStrategy, nodeStrategy } from './strategy.js';

/** Builds the nodes registration. */
export const nodesModule: ResourceModule = (deps) => {
  const store = new GenericStore({ group: '', resource: 'nodes', kind: 'Node', keyPrefix: '/minions' }, nodeStrategy, deps.storage, {}, deps.storeSettings);
  return [
    {
      group: '',
      version: 'v1',
      resource: 'nodes',
      namespaced: false,
      main: store,
      subresources: { status: new StatusStore(store, nodeStatusStrategy) },
      selectableFields: nodeStrategy.selectableFields,
      defaulter: defaultNode,
    },
  ];
};
