/**
 * The nodes resource (core/v1, cluster-scoped), stored under /minions/<name> as kube lays it out,
 * with nodes/status and nodes/proxy (to the node's kubelet).
 */
import type { ResourceModule } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import { StatusStore } from '../../generic/status-store.js';
import { defaultNode } from './defaults.js';
import { nodeStatusStrategy, nodeStrategy } from './strategy.js';
import { NodeProxyStorage } from './proxy.js';

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
      subresources: { status: new StatusStore(store, nodeStatusStrategy), proxy: new NodeProxyStorage(() => deps.kubeletClient, deps.proxyBytesPerSec ?? 0) },
      selectableFields: nodeStrategy.selectableFields,
      defaulter: defaultNode,
    },
  ];
};
