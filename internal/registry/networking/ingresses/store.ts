/**
 * The ingresses resource of networking.k8s.io/v1, stored under /ingress/<namespace>/<name>
 * (kube's special prefix), with ingresses/status.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { ingressStatusStrategy, ingressStrategy } from './strategy.js';

/** Builds the networking.k8s.io/v1 ingresses registration. */
export const ingressesModule = defineResourceModule({
  group: 'networking.k8s.io',
  resource: 'ingresses',
  kind: 'Ingress',
  keyPrefix: '/ingress',
  storageVersion: 'v1',
  strategy: ingressStrategy,
  versions: [{ version: 'v1' }],
  status: ingressStatusStrategy,
});
