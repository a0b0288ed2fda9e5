/**
 * kube's policy-based RBAC storage (the policybased packages of pkg/registry/rbac): the generic store of roles,
 * cluster roles, role bindings and cluster role bindings behind RBAC's escalation prevention.
 * Writing a role needs every permission it grants (or "escalate" on it); writing a binding needs
 * every permission of the role it references (or "bind" on that role); setting or changing an
 * aggregation rule needs cluster-admin's permissions. system:masters (and so the server itself)
 * skips the checks, and so does an update touching only what the garbage collector writes.
 * Refusals are kube's 403, e.g. `clusterrolebindings.rbac.authorization.k8s.io "x" is forbidden:
 * user "u" (groups=["g"]) is attempting to grant RBAC permissions not currently held: ...`.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newForbidden, type GroupResource } from '../../../apierrors/factories.js';
import type { BuiltAuthorization } from '../../../authz/build.js';
import { compileRules } from '../../../authz/rbac/compiled-role.js';
import { bindingAuthorized, confirmNoEscalation, escalationAllowed, fullAuthority, roleEscalationAuthorized } from '../../../authz/rbac/escalation.js';
import type { BindingObject, RoleObject, RoleRef } from '../../../authz/rbac/types.js';
import type { PolicyRule } from '../../../authz/rules.js';
import type { RequestContext } from '../../../request/context.js';
import type { GenericStore } from '../../generic/store.js';
import type { RestStorage, UpdatedObjectInfo } from '../../interface.js';
import type { SecurityHandles } from '../../registration.js';
import { isOnlyMutatingGCFields } from './gc-fields.js';
import { rbacGroup } from './validation.js';

type Check = (ctx: RequestContext, obj: KubeObject, old: KubeObject | undefined) => Promise<void>;

function hasAggregationRule(obj: KubeObject | undefined): boolean {
  return ((obj as RoleObject | undefined)?.aggregationRule?.clusterRoleSelectors?.length ?? 0) > 0;
}

function authorizationOf(security: SecurityHandles, gr: GroupResource, name: string): BuiltAuthorization {
  // Only possible while the server is still starting: refuse rather than let a write through unchecked.
  if (!security.authorization) throw newForbidden(gr, name, 'the authorizer is not ready');
  return security.authorization;
}

function guarded(store: GenericStore, skip: (ctx: RequestContext) => Promise<boolean>, check: Check): RestStorage {
  return {
    get: store.get.bind(store),
    list: store.list.bind(store),
    watch: store.watch.bind(store),
    delete: store.delete.bind(store),
    deleteCollection: store.deleteCollection.bind(store),
    async create(ctx, obj, opts, validate) {
      if (!(await skip(ctx))) await check(ctx, obj, undefined);
      return await store.create(ctx, obj, opts, validate);
    },
    async update(ctx, name, info, opts, validate) {
      if (await skip(ctx)) return await store.update(ctx, name, info, opts, validate);
      const checked: UpdatedObjectInfo = {
        updatedObject: async (c, old) => {
          const obj = await info.updatedObject(c, old);
          if (!isOnlyMutatingGCFields(obj, old)) await check(c, obj, old);
          return obj;
        },
      };
      return await store.update(ctx, name, checked, opts, validate);
    },
  };
}

function refuseEscalation(security: SecurityHandles, gr: GroupResource, ctx: RequestContext, name: string, namespace: string, rules: readonly PolicyRule[]): void {
  const why = confirmNoEscalation(authorizationOf(security, gr, name).rbac?.resolver, ctx.user, namespace, rules);
  if (why !== undefined) throw newForbidden(gr, name, why);
}

/**
 * The roles or clusterroles storage with escalation prevention; store itself when security is
 * absent (a registry built for tests of other resources).
 */
export function guardRoles(store: GenericStore, security: SecurityHandles | undefined): RestStorage {
  if (!security) return store;
  const gr = store.gr;
  const clusterScoped = gr.resource === 'clusterroles';
  const skip = async (ctx: RequestContext): Promise<boolean> =>
    escalationAllowed(ctx.user) || (await roleEscalationAuthorized(authorizationOf(security, gr, ctx.requestInfo.name).authorizer, ctx));
  return guarded(store, skip, async (ctx, obj, old) => {
    const name = obj.metadata.name ?? '';
    const namespace = clusterScoped ? '' : ctx.requestInfo.namespace;
    refuseEscalation(security, gr, ctx, name, namespace, compileRules((obj as RoleObject).rules));
    // An aggregation rule can gather any permission and keeps a role from being tightened.
    if (clusterScoped && (hasAggregationRule(obj) || hasAggregationRule(old))) {
      if (confirmNoEscalation(authorizationOf(security, gr, name).rbac?.resolver, ctx.user, '', fullAuthority) !== undefined) {
        throw newForbidden(gr, name, 'must have cluster-admin privileges to use the aggregationRule');
      }
    }
  });
}

function roleRefOf(obj: KubeObject): RoleRef {
  const ref = (obj as BindingObject).roleRef ?? {};
  return { apiGroup: String(ref.apiGroup ?? ''), kind: String(ref.kind ?? ''), name: String(ref.name ?? '') };
}

/**
 * The rolebindings or clusterrolebindings storage with escalation prevention; store itself when
 * security is absent.
 */
export function guardBindings(store: GenericStore, security: SecurityHandles | undefined): RestStorage {
  if (!security) return store;
  const gr = store.gr;
  const namespaced = gr.resource === 'rolebindings';
  const skip = async (ctx: RequestContext): Promise<boolean> => escalationAllowed(ctx.user);
  return guarded(store, skip, async (ctx, obj) => {
    const name = obj.metadata.name ?? '';
    const authorization = authorizationOf(security, gr, name);
    const namespace = namespaced ? ctx.requestInfo.namespace : '';
    const ref = roleRefOf(obj);
    if (await bindingAuthorized(authorization.authorizer, ctx.user, ref, namespace)) return;
    // A reference validation refuses (another group, another kind, a Role from a cluster binding)
    // is left to validation's 422 rather than failing here.
    const resolvable = ref.apiGroup === rbacGroup && ref.name !== '' && (ref.kind === 'ClusterRole' || (ref.kind === 'Role' && namespaced));
    if (!resolvable) return;
    if (!authorization.rbac) throw newForbidden(gr, name, 'the RBAC policy is not available');
    const rules = await authorization.rbac.roleReferenceRules(ref, namespace);
    refuseEscalation(security, gr, ctx, name, namespace, rules);
  });
}
