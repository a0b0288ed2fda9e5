/**
 * RBAC's escalation prevention (kube's pkg/registry/rbac escalation_check.go and
 * validation.ConfirmNoEscalation): a user may write a role only with every permission it grants
 * (or the escalate verb on it), and bind a role only with every permission it grants (or the bind
 * verb on it). Members of system:masters, which the server's own identity belongs to, may always.
 */
import type { RequestContext, UserInfo } from '../../request/context.js';
import { goQuote } from '../../validation/field-error.js';
import type { AuthorizationAttributes, Authorizer } from '../interface.js';
import type { PolicyRule } from '../rules.js';
import { compactRules, compactString } from './compact.js';
import { covers } from './covers.js';
import { aggregateMessage, rbacGroup, type RbacRuleResolver, type RoleRef } from './types.js';

/** user.SystemPrivilegedGroup. */
export const systemMastersGroup = 'system:masters';

/** The rules of cluster-admin: what using an aggregation rule requires. */
export const fullAuthority: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** EscalationAllowed: members of system:masters skip every escalation check. */
export function escalationAllowed(user: UserInfo): boolean {
  return user.groups.includes(systemMastersGroup);
}

function goStrings(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}

/**
 * ConfirmNoEscalation: undefined when the user's own rules in namespace ('' for cluster-wide)
 * cover rules, else kube's message: `user "x" (groups=["a" "b"]) is attempting to grant RBAC
 * permissions not currently held:` and the missing rules, one a line, compacted and sorted.
 */
export function confirmNoEscalation(resolver: RbacRuleResolver | undefined, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
  const own = resolver?.policyRulesFor(user, namespace) ?? { rules: [], errors: [] };
  const result = covers(own.rules, rules);
  if (result.covered) return undefined;
  const missing = [...new Set(compactRules(result.missing).map(compactString))].sort();
  let msg = `user ${goQuote(user.name)} (groups=${goStrings(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${missing.join('\n')}`;
  // kube prints its one-element []error with %v.
  if (own.errors.length > 0) msg += `; resolution errors: [${aggregateMessage(own.errors)}]`;
  return msg;
}

function resourceAttributes(user: UserInfo, verb: string, namespace: string, apiGroup: string, resource: string, name: string): AuthorizationAttributes {
  return { user, verb, isResourceRequest: true, path: '', namespace, apiGroup, apiVersion: '*', resource, subresource: '', name };
}

async function allowed(authorizer: Authorizer | undefined, attrs: AuthorizationAttributes): Promise<boolean> {
  if (!authorizer) return false;
  try {
    return (await authorizer.authorize(attrs)).decision === 'Allow';
  } catch {
    // kube logs an authorizer error here and treats it as not authorized.
    return false;
  }
}

/**
 * BindingAuthorized: whether the user may "bind" the referenced role, asked in the binding's
 * namespace ('' for a ClusterRoleBinding), so resourceNames can delegate binding single roles.
 */
export async function bindingAuthorized(authorizer: Authorizer | undefined, user: UserInfo, roleRef: RoleRef, bindingNamespace: string): Promise<boolean> {
  let resource: string;
  if (roleRef.kind === 'ClusterRole') resource = 'clusterroles';
  else if (roleRef.kind === 'Role') resource = 'roles';
  else return false;
  const attrs = resourceAttributes(user, 'bind', bindingNamespace, roleRef.apiGroup, resource, roleRef.name);
  return await allowed(authorizer, { ...attrs, apiVersion: '' });
}

/** RoleEscalationAuthorized: whether the request's user may "escalate" the role the request is about. */
export async function roleEscalationAuthorized(authorizer: Authorizer | undefined, ctx: RequestContext): Promise<boolean> {
  const info = ctx.requestInfo;
  if (!info.isResourceRequest || info.apiGroup !== rbacGroup) return false;
  if (info.resource !== 'roles' && info.resource !== 'clusterroles') return false;
  return await allowed(authorizer, resourceAttributes(ctx.user, 'escalate', info.namespace, info.apiGroup, info.resource, info.name));
}
