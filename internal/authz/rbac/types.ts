/**
 * The RBAC objects as the authorizer, the escalation check, the bootstrap policy and the
 * aggregation controller read them (rbac.authorization.k8s.io/v1, stored form), and the rule
 * resolver they share (kube's AuthorizationRuleResolver).
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { UserInfo } from '../../request/context.js';
import type { PolicyRule } from '../rules.js';
import type { Authorizer } from '../interface.js';

/** rbac.GroupName. */
export const rbacGroup = 'rbac.authorization.k8s.io';

/** A binding's roleRef. */
export interface RoleRef {
  readonly apiGroup: string;
  readonly kind: string;
  readonly name: string;
}

/** A binding's subject (User, Group or ServiceAccount). */
export interface Subject {
  readonly kind: string;
  readonly apiGroup?: string;
  readonly name: string;
  readonly namespace?: string;
}

/** A metav1.LabelSelector inside an aggregation rule. */
export interface ClusterRoleSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly { readonly key: string; readonly operator: string; readonly values?: readonly string[] }[];
}

/** A Role or ClusterRole. */
export interface RoleObject extends KubeObject {
  rules?: PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: ClusterRoleSelector[] | null } | null;
}

/** A RoleBinding or ClusterRoleBinding. */
export interface BindingObject extends KubeObject {
  roleRef: RoleRef;
  subjects?: Subject[] | null;
}

/** The rules bound to a user, with the errors met resolving them (missing roles). */
export interface PolicyRulesResult {
  readonly rules: readonly PolicyRule[];
  /** One message per failure, e.g. `clusterrole.rbac.authorization.k8s.io "x" not found`. */
  readonly errors: readonly string[];
}

/**
 * kube's AuthorizationRuleResolver.RulesFor: every rule of every role bound to user by a
 * ClusterRoleBinding, and, when namespace is not empty, by a RoleBinding in namespace. The rules
 * found are valid even when errors are reported (rules only ever add permissions). Synchronous and
 * answered from memory; the result must not be mutated.
 */
export interface RbacRuleResolver {
  policyRulesFor(user: UserInfo, namespace: string): PolicyRulesResult;
}

/**
 * utilerrors.NewAggregate(...).Error(): one message as is, several deduplicated and joined as
 * "[a, b]"; empty for none.
 */
export function aggregateMessage(messages: readonly string[]): string {
  if (messages.length <= 1) return messages[0] ?? '';
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] as string) : `[${unique.join(', ')}]`;
}

/**
 * What RBAC offers the rest of the server besides its authorizer (BuiltAuthorization.rbac): the
 * rule resolver of the escalation check and SelfSubjectRulesReview, role references read from
 * storage, and whether the bootstrap policy has been reconciled since start.
 */
export interface RbacPolicyHandle {
  /** The RBAC authorizer itself (the union asks it for --authorization-mode=RBAC). */
  readonly authorizer: Authorizer;
  readonly resolver: RbacRuleResolver;
  /**
   * kube's GetRoleReferenceRules: the rules of the Role (in bindingNamespace) or ClusterRole ref
   * names, read from storage (a consistent read). Rejects with the store's NotFound when it does not exist.
   */
  roleReferenceRules(ref: RoleRef, bindingNamespace: string): Promise<readonly PolicyRule[]>;
  /** Whether the bootstrap policy has been reconciled (the readyz check "poststarthook/rbac/bootstrap-roles"). */
  bootstrapped(): boolean;
}
