/**
 * The ClusterRoleBindings kube-apiserver 1.33 creates for its default ClusterRoles (kube's
 * bootstrappolicy.ClusterRoleBindings): cluster-admin to system:masters, discovery, basic-user
 * and public info to everyone, monitoring, the components' users, and system:node without
 * subjects (the Node authorizer decides for kubelets).
 */
import type { BindingObject } from '../rbac/types.js';
import { clusterBinding } from './builders.js';

/** The ClusterRoleBindings other than the controllers' (fresh objects on each call). */
export function clusterRoleBindings(): BindingObject[] {
  return [
    clusterBinding('cluster-admin').groups('system:masters').build(),
    clusterBinding('system:monitoring').groups('system:monitoring').build(),
    clusterBinding('system:discovery').groups('system:authenticated').build(),
    clusterBinding('system:basic-user').groups('system:authenticated').build(),
    clusterBinding('system:public-info-viewer').groups('system:authenticated', 'system:unauthenticated').build(),
    clusterBinding('system:node-proxier').users('system:kube-proxy').build(),
    clusterBinding('system:kube-controller-manager').users('system:kube-controller-manager').build(),
    clusterBinding('system:kube-dns').serviceAccount('kube-system', 'kube-dns').build(),
    clusterBinding('system:kube-scheduler').users('system:kube-scheduler').build(),
    clusterBinding('system:volume-scheduler').users('system:kube-scheduler').build(),
    clusterBinding('system:service-account-issuer-discovery').groups('system:serviceaccounts').build(),
    clusterBinding('system:node').build(),
  ];
}
