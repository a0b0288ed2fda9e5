/**
 * Builders for the bootstrap policy, in the style of kube's rbacv1helpers: a rule is its verbs,
 * then groups and resources (or non-resource URLs) and resource names; every list is sorted and
 * deduplicated, as kube's builder leaves it, so the objects compare equal to kube's. Roles and
 * bindings come out without metadata beyond their names; policy.ts adds the bootstrap labels.
 */
import type { PolicyRule } from '../rules.js';
import { rbacGroup, type BindingObject, type RoleObject, type Subject } from '../rbac/types.js';

/** The verbs of reading a resource. */
export const read = ['get', 'list', 'watch'] as const;
/** The verbs of changing a resource. */
export const write = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;
/** Both. */
export const readWrite = [...read, ...write] as const;

/** The core ("") API group. */
export const legacyGroup = '';

function set(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

/** A policy rule under construction. */
export class RuleBuilder {
  private apiGroups: string[] = [];
  private resourceList: string[] = [];
  private resourceNames: string[] = [];
  private urlList: string[] = [];

  constructor(private readonly verbs: readonly string[]) {}

  /** Adds API groups. */
  groups(...groups: string[]): this {
    this.apiGroups = set([...this.apiGroups, ...groups]);
    return this;
  }

  /** Adds resources ("resource" or "resource/subresource"). */
  resources(...resources: string[]): this {
    this.resourceList = set([...this.resourceList, ...resources]);
    return this;
  }

  /** Restricts to named objects. */
  names(...names: string[]): this {
    this.resourceNames = set([...this.resourceNames, ...names]);
    return this;
  }

  /** Adds non-resource URLs. */
  urls(...urls: string[]): this {
    this.urlList = set([...this.urlList, ...urls]);
    return this;
  }

  /** The rule, with kube's field order and only non-empty fields. Throws on a rule kube's builder refuses. */
  build(): PolicyRule {
    if (this.verbs.length === 0) throw new Error('verbs are required');
    const resourceRule = this.resourceList.length > 0;
    if (resourceRule === this.urlList.length > 0) throw new Error('a rule must have either nonResourceURLs or resources');
    if (resourceRule && this.apiGroups.length === 0) throw new Error('resource rule must have apiGroups');
    if (!resourceRule) return { verbs: set(this.verbs), nonResourceURLs: this.urlList };
    return {
      verbs: set(this.verbs),
      apiGroups: this.apiGroups,
      resources: this.resourceList,
      ...(this.resourceNames.length > 0 ? { resourceNames: this.resourceNames } : {}),
    };
  }
}

/** Starts a rule with verbs. */
export function rule(...verbs: readonly string[]): RuleBuilder {
  return new RuleBuilder(verbs);
}

/** create, update and patch of events in both event groups: what every controller gets. */
export function eventsRule(): RuleBuilder {
  return rule('create', 'update', 'patch').groups(legacyGroup, 'events.k8s.io').resources('events');
}

/** A ClusterRole (kind and apiVersion set) with rules and, optionally, labels and an aggregation rule. */
export function clusterRole(name: string, rules: readonly RuleBuilder[], extra: { labels?: Record<string, string>; aggregateFrom?: string } = {}): RoleObject {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'ClusterRole',
    metadata: { name, ...(extra.labels ? { labels: { ...extra.labels } } : {}) },
    ...(extra.aggregateFrom ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [extra.aggregateFrom]: 'true' } }] } } : {}),
    rules: rules.map((r) => r.build()),
  };
}

/** A Role in namespace. */
export function role(namespace: string, name: string, rules: readonly RuleBuilder[]): RoleObject {
  return { apiVersion: `${rbacGroup}/v1`, kind: 'Role', metadata: { name, namespace }, rules: rules.map((r) => r.build()) };
}

/** A binding under construction: its role and subjects, in the order given. */
export class BindingBuilder {
  private readonly subjects: Subject[] = [];

  constructor(
    private readonly name: string,
    private readonly roleKind: 'Role' | 'ClusterRole',
    private readonly roleName: string,
    private readonly namespace: string,
  ) {}

  /** Adds User subjects. */
  users(...names: string[]): this {
    for (const name of names) this.subjects.push({ kind: 'User', apiGroup: rbacGroup, name });
    return this;
  }

  /** Adds Group subjects. */
  groups(...names: string[]): this {
    for (const name of names) this.subjects.push({ kind: 'Group', apiGroup: rbacGroup, name });
    return this;
  }

  /** Adds a ServiceAccount subject. */
  serviceAccount(namespace: string, name: string): this {
    this.subjects.push({ kind: 'ServiceAccount', name, namespace });
    return this;
  }

  /** The binding (a RoleBinding when it has a namespace). */
  build(): BindingObject {
    return {
      apiVersion: `${rbacGroup}/v1`,
      kind: this.namespace ? 'RoleBinding' : 'ClusterRoleBinding',
      metadata: { name: this.name, ...(this.namespace ? { namespace: this.namespace } : {}) },
      roleRef: { apiGroup: rbacGroup, kind: this.roleKind, name: this.roleName },
      ...(this.subjects.length > 0 ? { subjects: this.subjects.map((s) => ({ ...s })) } : {}),
    };
  }
}

/** A ClusterRoleBinding named like the ClusterRole it binds (kube's NewClusterBinding). */
export function clusterBinding(clusterRoleName: string): BindingBuilder {
  return new BindingBuilder(clusterRoleName, 'ClusterRole', clusterRoleName, '');
}

/** A RoleBinding in namespace named like the Role it binds, unless name is given (kube's NewRoleBinding). */
export function roleBinding(namespace: string, roleName: string, name = roleName): BindingBuilder {
  return new BindingBuilder(name, 'Role', roleName, namespace);
}
