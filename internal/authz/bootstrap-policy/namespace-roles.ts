/**
 * The Roles and RoleBindings kube-apiserver 1.33 creates in kube-system and kube-public (kube's
 * bootstrappolicy namespace_policy.go): leader election of the controller manager and scheduler,
 * reading the extension API server authentication config map, and the bootstrap-token signer,
 * token cleaner and cloud provider controllers.
 */
import type { BindingObject, RoleObject } from '../rbac/types.js';
import { eventsRule, legacyGroup, read, role, roleBinding, rule } from './builders.js';

const kubeSystem = 'kube-system';
const kubePublic = 'kube-public';

function leaderLocking(component: string): RoleObject {
  return role(kubeSystem, `system::leader-locking-${component}`, [
    rule('watch').groups(legacyGroup).resources('configmaps'),
    rule('get', 'update').groups(legacyGroup).resources('configmaps').names(component),
    rule('watch', 'get', 'list', 'create', 'update').groups('coordination.k8s.io').resources('leases'),
    rule('watch', 'get', 'list', 'create', 'update').groups('coordination.k8s.io').resources('leasecandidates'),
  ]);
}

/** The namespaced Roles (fresh objects on each call). */
export function namespaceRoles(): RoleObject[] {
  return [
    role(kubeSystem, 'extension-apiserver-authentication-reader', [
      rule(...read).groups(legacyGroup).resources('configmaps').names('extension-apiserver-authentication'),
    ]),
    leaderLocking('kube-controller-manager'),
    leaderLocking('kube-scheduler'),
    role(kubeSystem, 'system:controller:bootstrap-signer', [rule(...read).groups(legacyGroup).resources('secrets')]),
    role(kubeSystem, 'system:controller:cloud-provider', [rule('create', 'get', 'list', 'watch').groups(legacyGroup).resources('configmaps')]),
    role(kubeSystem, 'system:controller:token-cleaner', [rule('delete', 'get', 'list', 'watch').groups(legacyGroup).resources('secrets'), eventsRule()]),
    role(kubePublic, 'system:controller:bootstrap-signer', [
      rule(...read).groups(legacyGroup).resources('configmaps'),
      rule('update').groups(legacyGroup).resources('configmaps').names('cluster-info'),
      eventsRule(),
    ]),
  ];
}

/** The namespaced RoleBindings (fresh objects on each call). */
export function namespaceRoleBindings(): BindingObject[] {
  return [
    roleBinding(kubeSystem, 'extension-apiserver-authentication-reader', 'system::extension-apiserver-authentication-reader')
      .users('system:kube-controller-manager', 'system:kube-scheduler')
      .build(),
    roleBinding(kubeSystem, 'system::leader-locking-kube-controller-manager')
      .users('system:kube-controller-manager')
      .serviceAccount(kubeSystem, 'kube-controller-manager')
      .serviceAccount(kubeSystem, 'leader-election-controller')
      .build(),
    roleBinding(kubeSystem, 'system::leader-locking-kube-scheduler').users('system:kube-scheduler').serviceAccount(kubeSystem, 'kube-scheduler').build(),
    roleBinding(kubeSystem, 'system:controller:bootstrap-signer').serviceAccount(kubeSystem, 'bootstrap-signer').build(),
    roleBinding(kubeSystem, 'system:controller:cloud-provider').serviceAccount(kubeSystem, 'cloud-provider').build(),
    roleBinding(kubeSystem, 'system:controller:token-cleaner').serviceAccount(kubeSystem, 'token-cleaner').build(),
    roleBinding(kubePublic, 'system:controller:bootstrap-signer').serviceAccount(kubeSystem, 'bootstrap-signer').build(),
  ];
}
