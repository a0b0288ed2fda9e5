/**
 * The built-in resources Capstan serves, as resource modules. Namespaces are registered by the
 * server itself, ahead of these, because the namespace lifecycle depends on them.
 */
import { deploymentsModule } from './apps/deployments/store.js';
import { leasesModule } from './coordination/leases/store.js';
import { configMapsModule } from './core/configmaps/store.js';
import { endpointsModule } from './core/endpoints/store.js';
import { eventsModule } from './core/events/store.js';
import { nodesModule } from './core/nodes/store.js';
import { podsModule } from './core/pods/store.js';
import { secretsModule } from './core/secrets/store.js';
import { serviceAccountsModule } from './core/serviceaccounts/store.js';
import { servicesModule } from './core/services/store.js';
import { eventsV1Module } from './events/events/store.js';
import type { ResourceModule } from './registration.js';

/** Every built-in resource module except namespaces. Order is discovery-irrelevant; each module is independent. */
export const builtinResourceModules: ResourceModule[] = [
  configMapsModule,
  secretsModule,
  serviceAccountsModule,
  podsModule,
  servicesModule,
  nodesModule,
  endpointsModule,
  eventsModule,
  eventsV1Module,
  leasesModule,
  deploymentsModule,
];
