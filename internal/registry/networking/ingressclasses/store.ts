/**
 * The ingressclasses resource of networking.k8s.io/v1, stored under /ingressclasses/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultIngressClass, ingressClassStrategy } from './strategy.js';

/** Builds the networking.k8s.io/v1 ingressclasses registration. */
export const ingressClassesModule = defineResourceModule({
  group: 'networking.k8s.io',
  resource: 'ingressclasses',
  kind: 'IngressClass',
  keyPrefix: '/ingressclasses',
  storageVersion: 'v1',
  strategy: ingressClassStrategy,
  versions: [{ version: 'v1', defaulter: defaultIngressClass }],
});
