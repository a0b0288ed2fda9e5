/**
 * The whole bootstrap policy kube-apiserver 1.33 reconciles at start: every default ClusterRole,
 * ClusterRoleBinding, Role and RoleBinding, each labelled kubernetes.io/bootstrapping=rbac-defaults
 * and annotated rbac.authorization.kubernetes.io/autoupdate=true (kube's addDefaultMetadata).
 */
import type { BindingObject, RoleObject } from '../rbac/types.js';
import { clusterRoleBindings } from './cluster-role-bindings.js';
import { clusterRoles } from './cluster-roles.js';
import { controllerRoleBindings, controllerRoles } from './controller-roles.js';
import { namespaceRoleBindings, namespaceRoles } from './namespace-roles.js';

/** The annotation that, set to "false" by an administrator, stops reconciliation of an object. */
export const autoUpdateAnnotation = 'rbac.authorization.kubernetes.io/autoupdate';
/** The label every bootstrap object carries. */
export const bootstrappingLabel = 'kubernetes.io/bootstrapping';

/** Every object of the bootstrap policy, by resource. */
export interface BootstrapPolicy {
  readonly clusterRoles: readonly RoleObject[];
  readonly clusterRoleBindings: readonly BindingObject[];
  readonly roles: readonly RoleObject[];
  readonly roleBindings: readonly BindingObject[];
}

function withDefaults<T extends RoleObject | BindingObject>(obj: T): T {
  obj.metadata.labels = { [bootstrappingLabel]: 'rbac-defaults', ...obj.metadata.labels };
  obj.metadata.annotations = { [autoUpdateAnnotation]: 'true', ...obj.metadata.annotations };
  return obj;
}

/** The bootstrap policy (fresh objects on each call: callers may mutate them). */
export function bootstrapPolicy(): BootstrapPolicy {
  return {
    clusterRoles: [...clusterRoles(), ...controllerRoles()].map(withDefaults),
    clusterRoleBindings: [...clusterRoleBindings(), ...controllerRoleBindings()].map(withDefaults),
    roles: namespaceRoles().map(withDefaults),
    roleBindings: namespaceRoleBindings().map(withDefaults),
  };
}

/**
 * kube's ClusterRolesToAggregate: the names admin, edit and view had their own rules under before
 * they were aggregated; an old cluster's rules are copied to the new names once.
 */
export const clusterRolesToAggregate: Readonly<Record<string, string>> = {
  admin: 'system:aggregate-to-admin',
  edit: 'system:aggregate-to-edit',
  view: 'system:aggregate-to-view',
};

/**
 * kube's ClusterRoleBindingsToSplit: system:public-info-viewer was split out of system:discovery;
 * an old cluster's system:discovery subjects are copied to it once.
 */
export function clusterRoleBindingsToSplit(): Readonly<Record<string, BindingObject>> {
  const viewer = clusterRoleBindings().find((b) => b.metadata.name === 'system:public-info-viewer') as BindingObject;
  return { 'system:discovery': withDefaults(viewer) };
}
