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
import { compileRole, rulesForVerb } from './compiled-role.js';
import { SubjectIndex, type IndexedBinding, type RoleSlot } from './subject-index.js';
import { subjectUsername } from './subjects.js';
import type { BindingObject, PolicyRulesResult, RbacRuleResolver, RoleRef, Subject } from './types.js';

/** The slot key of a role reference made from a binding in bindingNamespace ('' for cluster bindings). */
function slotKey(kind: string, name: string, bindingNamespace: string): string {
  if (kind === 'ClusterRole') return `ClusterRole/${name}`;
  // A Role is looked up in the binding's namespace; from a cluster binding it never resolves.
  if (kind === 'Role' && bindingNamespace) return `Role/${bindingNamespace}/${name}`;
  return `unresolvable/${kind}/${bindingNamespace}/${name}`;
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
  private readonly slots = new Map<string, RoleSlot>();
  private readonly cluster = new SubjectIndex();
  private readonly namespaces = new Map<string, SubjectIndex>();
  private readonly bindings = new Map<string, IndexedBinding>();

  /** Stores (or replaces) a Role's or ClusterRole's rules, compiled. */
  setRole(obj: KubeObject): void {
    const slot = this.acquire(this.roleSlotKey(obj), false);
    if (!slot.role) slot.refs++;
    slot.role = compileRole((obj as { rules?: unknown }).rules);
  }

  /** Forgets a Role or ClusterRole. */
  deleteRole(obj: KubeObject): void {
    const key = this.roleSlotKey(obj);
    const slot = this.slots.get(key);
    if (!slot?.role) return;
    slot.role = undefined;
    this.release(key, slot);
  }

  /** Indexes (or re-indexes) a RoleBinding or ClusterRoleBinding. */
  setBinding(obj: KubeObject): void {
    this.deleteBinding(obj);
    const ns = obj.metadata.namespace ?? '';
    const b = obj as BindingObject;
    const ref = b.roleRef ?? { apiGroup: '', kind: '', name: '' };
    const roleRef: RoleRef = Object.freeze({ apiGroup: String(ref.apiGroup ?? ''), kind: String(ref.kind ?? ''), name: String(ref.name ?? '') });
    const subjects = toSubjects(b.subjects);
    const entry: IndexedBinding = Object.freeze({
      kind: ns ? 'RoleBinding' : 'ClusterRoleBinding',
      name: obj.metadata.name ?? '',
      namespace: ns,
      roleRef,
      slot: this.acquire(slotKey(roleRef.kind, roleRef.name, ns), true),
      subjects,
      subjectUsers: Object.freeze(subjects.map((s) => subjectUsername(s, ns))),
      allowed: [],
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
    this.release(slotKey(old.roleRef.kind, old.roleRef.name, old.namespace), old.slot);
    const scope = this.scope(old.namespace, false);
    if (!scope) return;
    scope.remove(old);
    if (old.namespace && scope.isEmpty()) this.namespaces.delete(old.namespace);
  }

  /** What the index holds (for tests and metrics): role slots, bindings and namespaces with bindings. */
  size(): { slots: number; bindings: number; namespaces: number } {
    return { slots: this.slots.size, bindings: this.bindings.size, namespaces: this.namespaces.size };
  }

  /** The rules of the role b references, undefined when that role does not exist (yet). */
  rulesOf(b: IndexedBinding): readonly PolicyRule[] | undefined {
    return b.slot.role?.rules;
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
      const role = b.slot.role;
      if (!role) missing.push(b);
      else if (rulesAllow(attrs, rulesForVerb(role, attrs.verb))) return b;
    }
    return undefined;
  }

  private roleSlotKey(obj: KubeObject): string {
    const ns = obj.metadata.namespace ?? '';
    return ns ? `Role/${ns}/${obj.metadata.name ?? ''}` : `ClusterRole/${obj.metadata.name ?? ''}`;
  }

  /** The slot under key, created when missing; counts a holder when binding is true. */
  private acquire(key: string, binding: boolean): RoleSlot {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { role: undefined, refs: 0 };
      this.slots.set(key, slot);
    }
    if (binding) slot.refs++;
    return slot;
  }

  /** Drops one holder of the slot under key; forgets the slot when nothing holds it. */
  private release(key: string, slot: RoleSlot): void {
    slot.refs--;
    if (slot.refs <= 0 && this.slots.get(key) === slot) this.slots.delete(key);
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
