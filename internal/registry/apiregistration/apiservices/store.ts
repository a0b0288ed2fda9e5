/**
 * The apiservices resource of apiregistration.k8s.io/v1, stored under
 * /apiregistration.k8s.io/apiservices/<name>, with apiservices/status. Capstan stores them; it
 * does not proxy to the services they name.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { apiServiceStrategy, defaultAPIService } from './strategy.js';

/** Builds the apiregistration.k8s.io/v1 apiservices registration. */
export const apiServicesModule = defineResourceModule({
  group: 'apiregistration.k8s.io',
  resource: 'apiservices',
  kind: 'APIService',
  keyPrefix: '/apiregistration.k8s.io/apiservices',
  storageVersion: 'v1',
  strategy: apiServiceStrategy,
  versions: [{ version: 'v1', defaulter: defaultAPIService }],
  status: true,
});
