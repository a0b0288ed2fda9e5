/**
 * The deployments resource of apps/v1, stored under /deployments/<namespace>/<name>, with
 * deployments/status and deployments/scale (autoscaling/v1 Scale over spec.replicas).
 */
import type { ResourceModule } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import { ScaleStore, specReplicasMapping } from '../../generic/scale-store.js';
import { StatusStore } from '../../generic/status-store.js';
import { defaultDeployment } from './defaults.js';
import { deploymentStatusStrategy, deploymentStrategy } from './strategy.js';

/** Builds the apps/v1 deployments registration. */
export const deploymentsModule: ResourceModule = (deps) => {
  const store = new GenericStore({ group: 'apps', resource: 'deployments', kind: 'Deployment', keyPrefix: '/deployments' }, deploymentStrategy, deps.storage, {}, deps.storeSettings);
  return [
    {
      group: 'apps',
      version: 'v1',
      resource: 'deployments',
      namespaced: true,
      main: store,
      subresources: { status: new StatusStore(store, deploymentStatusStrategy), scale: new ScaleStore(store, specReplicasMapping) },
      selectableFields: deploymentStrategy.selectableFields,
      defaulter: defaultDeployment,
    },
  ];
};
