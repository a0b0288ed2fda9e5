/**
 * The rolebindings resource of rbac.authorization.k8s.io/v1, stored under
 * /rolebindings/<namespace>/<name>: a Role or ClusterRole reference that never changes, and
 * User, Group or ServiceAccount subjects. roleRef.apiGroup and subject apiGroups are defaulted.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultBinding } from '../shared/validation.js';
import { roleBindingStrategy } from './strategy.js';

/** Builds the rbac.authorization.k8s.io/v1 rolebindings registration. */
export const roleBindingsModule = defineResourceModule({
  group: 'rbac.authorization.k8s.io',
  resource: 'rolebindings',
  kind: 'RoleBinding',
  keyPrefix: '/rolebindings',
  storageVersion: 'v1',
  strategy: roleBindingStrategy,
  versions: [{ version: 'v1', defaulter: defaultBinding }],
});
