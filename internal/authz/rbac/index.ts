/**
 * RBAC's in-memory policy: roles' compiled rules by name and bindings indexed by subject, per
 * scope (cluster-wide and each namespace). Fed by the informers' events (policy-cache.ts); read
 * synchronously by the authorizer and the rule resolver. A decision looks at the bindings of the
 * user's name and groups only, cluster-wide first and then in the request's namespace, as kube's
 * DefaultRuleResolver visits them.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { UserInfo } from '../../request/context.js';
import { goQuote } from '../../validation/field-error.js';
import type { AuthorizationAttributes } from '../interface.js';
import { rulesAllow, type PolicyRule } from '../rules.js';
import { compileRules } from './compiled-role.js';
import { SubjectIndex, type IndexedBinding } from './subject-index.js';
import type { BindingObject, PolicyRulesResult, RbacRuleResolver, RoleRef, Subject } from './types.js';

function keyOf(namespace: string, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

function toSubjects(raw: unknown): readonly Subject[] {
  if (!Array.isArray(raw)) return [];
  return Object.freeze(
    raw
      .filter((s): s is Record<string, unknown> => typeof s === 'object' && s !== null)
      .map((s) =>
        Object.freeze({
          kind: String(s.kind ?? ''),
          apiGroup: String(s.apiGroup ?? ''),
          name: String(s.name ?? ''),
          namespace: String(s.namespace ?? ''),
        }),
      ),
  );
}

/** The error kube's listers give for a role a binding references that does not exist. */
export function missingRoleMessage(ref: RoleRef): string {
  if (ref.kind === 'ClusterRole') return `clusterrole.rbac.authorization.k8s.io ${goQuote(ref.name)} not found`;
  if (ref.kind === 'Role') return `role.rbac.authorization.k8s.io ${goQuote(ref.name)} not found`;
  return `unsupported role reference kind: ${goQuote(ref.kind)}`;
}

/** The policy in memory. Mutated only by the set/delete methods (informer handlers). */
export class RbacIndex implements RbacRuleResolver {
  private readonly clusterRoles = new Map<string, readonly PolicyRule[]>();
  private readonly roles = new Map<string, readonly PolicyRule[]>();
  private readonly cluster = new SubjectIndex();
  private readonly namespaces = new Map<string, SubjectIndex>();
  private readonly bindings = new Map<string, IndexedBinding>();

  /** Stores (or replaces) a Role's or ClusterRole's rules, compiled. */
  setRole(obj: KubeObject): void {
    const ns = obj.metadata.namespace ?? '';
    const rules = compileRules((obj as { rules?: unknown }).rules);
    if (ns) this.roles.set(keyOf(ns, obj.metadata.name ?? ''), rules);
    else this.clusterRoles.set(obj.metadata.name ?? '', rules);
  }

  /** Forgets a Role or ClusterRole. */
  deleteRole(obj: KubeObject): void {
    const ns = obj.metadata.namespace ?? '';
    if (ns) this.roles.delete(keyOf(ns, obj.metadata.name ?? ''));
    else this.clusterRoles.delete(obj.metadata.name ?? '');
  }

  /** Indexes (or re-indexes) a RoleBinding or ClusterRoleBinding. */
  setBinding(obj: KubeObject): void {
    this.deleteBinding(obj);
    const ns = obj.metadata.namespace ?? '';
    const b = obj as BindingObject;
    const ref = b.roleRef ?? { apiGroup: '', kind: '', name: '' };
    const roleRef: RoleRef = Object.freeze({ apiGroup: String(ref.apiGroup ?? ''), kind: String(ref.kind ?? ''), name: String(ref.name ?? '') });
    const entry: IndexedBinding = Object.freeze({
      kind: ns ? 'RoleBinding' : 'ClusterRoleBinding',
      name: obj.metadata.name ?? '',
      namespace: ns,
      roleRef,
      roleKey: roleRef.kind === 'Role' ? keyOf(ns, roleRef.name) : roleRef.name,
      subjects: toSubjects(b.subjects),
    });
    this.bindings.set(this.bindingKey(obj), entry);
    this.scope(ns, true)?.add(entry);
  }

  /** Removes a RoleBinding or ClusterRoleBinding from the index. */
  deleteBinding(obj: KubeObject): void {
    const key = this.bindingKey(obj);
    const old = this.bindings.get(key);
    if (!old) return;
    this.bindings.delete(key);
    const scope = this.scope(old.namespace, false);
    if (!scope) return;
    scope.remove(old);
    if (old.namespace && scope.isEmpty()) this.namespaces.delete(old.namespace);
  }

  /** The rules of the role b references, undefined when that role does not exist (yet). */
  rulesOf(b: IndexedBinding): readonly PolicyRule[] | undefined {
    if (b.roleRef.kind === 'ClusterRole') return this.clusterRoles.get(b.roleKey);
    if (b.roleRef.kind === 'Role' && b.namespace) return this.roles.get(b.roleKey);
    return undefined;
  }

  /**
   * The first binding (cluster-wide first, then in attrs.namespace) naming attrs.user whose role
   * allows the request. Bindings met whose role is missing are pushed to missing. Allocation-free
   * when the answer is found.
   */
  findAllowing(attrs: AuthorizationAttributes, missing: IndexedBinding[]): IndexedBinding | undefined {
    const found = this.scan(this.cluster, attrs, missing);
    if (found || !attrs.namespace) return found;
    const scope = this.namespaces.get(attrs.namespace);
    return scope ? this.scan(scope, attrs, missing) : undefined;
  }

  policyRulesFor(user: UserInfo, namespace: string): PolicyRulesResult {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    const seen = new Set<IndexedBinding>();
    const visit = (list: readonly IndexedBinding[] | undefined): void => {
      for (const b of list ?? []) {
        if (seen.has(b)) continue;
        seen.add(b);
        const r = this.rulesOf(b);
        if (r) rules.push(...r);
        else errors.push(missingRoleMessage(b.roleRef));
      }
    };
    const scopes = [this.cluster];
    const nsScope = namespace ? this.namespaces.get(namespace) : undefined;
    if (nsScope) scopes.push(nsScope);
    for (const scope of scopes) {
      visit(scope.byUser.get(user.name));
      for (const g of user.groups) visit(scope.byGroup.get(g));
    }
    return { rules, errors };
  }

  private scan(scope: SubjectIndex, attrs: AuthorizationAttributes, missing: IndexedBinding[]): IndexedBinding | undefined {
    const own = scope.byUser.get(attrs.user.name);
    if (own) {
      const b = this.firstAllowing(own, attrs, missing);
      if (b) return b;
    }
    const groups = attrs.user.groups;
    for (let i = 0; i < groups.length; i++) {
      const list = scope.byGroup.get(groups[i] as string);
      if (!list) continue;
      const b = this.firstAllowing(list, attrs, missing);
      if (b) return b;
    }
    return undefined;
  }

  private firstAllowing(list: readonly IndexedBinding[], attrs: AuthorizationAttributes, missing: IndexedBinding[]): IndexedBinding | undefined {
    for (let i = 0; i < list.length; i++) {
      const b = list[i] as IndexedBinding;
      const rules = this.rulesOf(b);
      if (!rules) missing.push(b);
      else if (rulesAllow(attrs, rules)) return b;
    }
    return undefined;
  }

  private bindingKey(obj: KubeObject): string {
    const ns = obj.metadata.namespace ?? '';
    return ns ? `rb/${ns}/${obj.metadata.name ?? ''}` : `crb/${obj.metadata.name ?? ''}`;
  }

  private scope(namespace: string, create: boolean): SubjectIndex | undefined {
    if (!namespace) return this.cluster;
    let s = this.namespaces.get(namespace);
    if (!s && create) {
      s = new SubjectIndex();
      this.namespaces.set(namespace, s);
    }
    return s;
  }
}
