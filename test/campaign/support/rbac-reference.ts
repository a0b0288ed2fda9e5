/**
 * An independent reference RBAC evaluator for the authorization fuzz campaign (issue 18 item 4),
 * written from the Kubernetes RBAC documentation ("Using RBAC Authorization") and the
 * rbac.authorization.k8s.io/v1 API types. It shares no code with internal/authz: it reads Roles,
 * ClusterRoles and their bindings as plain API objects and answers allow or deny for one set of
 * request attributes, the way the Node,RBAC chain of kube-apiserver decides for identities outside
 * system:nodes (members of system:masters are allowed everything before RBAC is asked).
 */

/** One rule of a Role or ClusterRole (rbac/v1 PolicyRule). */
export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** A label selector (meta/v1 LabelSelector) as an aggregationRule's clusterRoleSelectors hold it. */
export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly { readonly key: string; readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; readonly values?: readonly string[] }[];
}

/** Object metadata as far as RBAC reads it. */
export interface RbacMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
}

/** A Role (namespaced) or ClusterRole; only a ClusterRole may carry an aggregationRule. */
export interface RoleObject {
  readonly metadata: RbacMeta;
  readonly rules?: readonly PolicyRule[] | null;
  readonly aggregationRule?: { readonly clusterRoleSelectors?: readonly LabelSelector[] };
}

/** A subject of a binding (rbac/v1 Subject). */
export interface Subject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly apiGroup?: string;
}

/** A RoleBinding (namespaced) or ClusterRoleBinding. */
export interface BindingObject {
  readonly metadata: RbacMeta;
  readonly roleRef: { readonly apiGroup: string; readonly kind: string; readonly name: string };
  readonly subjects?: readonly Subject[] | null;
}

/** The whole policy the evaluator decides from. */
export interface RbacPolicy {
  readonly clusterRoles: readonly RoleObject[];
  readonly roles: readonly RoleObject[];
  readonly clusterRoleBindings: readonly BindingObject[];
  readonly roleBindings: readonly BindingObject[];
}

/** Who asks: a user name and its groups (extra and uid do not matter to RBAC). */
export interface UserInfo {
  readonly name: string;
  readonly groups: readonly string[];
}

/** Attributes of a request against a resource (namespace '' is cluster scope or all namespaces). */
export interface ResourceAttributes {
  readonly kind: 'resource';
  readonly user: UserInfo;
  readonly verb: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly namespace: string;
}

/** Attributes of a request for a non-resource path such as /healthz. */
export interface NonResourceAttributes {
  readonly kind: 'nonResource';
  readonly user: UserInfo;
  readonly verb: string;
  readonly path: string;
}

/** What an authorizer is asked. */
export type RequestAttributes = ResourceAttributes | NonResourceAttributes;

/** The group whose members every kube-apiserver authorizes before any authorization mode. */
export const PRIVILEGED_GROUP = 'system:masters';

/** True when labels satisfy selector; an empty selector matches everything, as in kube. */
export function selectorMatches(selector: LabelSelector, labels: Readonly<Record<string, string>> = {}): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const values = e.values ?? [];
    if (e.operator === 'In' && !(has && values.includes(labels[e.key]))) return false;
    if (e.operator === 'NotIn' && has && values.includes(labels[e.key])) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** A rule's canonical text, so rule sets can be compared as sets. */
export function ruleKey(rule: PolicyRule): string {
  const list = (xs: readonly string[] | undefined): string[] => [...(xs ?? [])];
  return JSON.stringify([list(rule.verbs), list(rule.apiGroups), list(rule.resources), list(rule.resourceNames), list(rule.nonResourceURLs)]);
}

/**
 * The effective rules of every ClusterRole: an aggregated one (with an aggregationRule) holds the
 * union of the rules of every other ClusterRole a selector matches, to a fixpoint (aggregated roles
 * may aggregate aggregated roles, as admin aggregates edit); its own stored rules are ignored,
 * because the aggregation controller overwrites them.
 */
export function aggregateClusterRoles(clusterRoles: readonly RoleObject[]): Map<string, PolicyRule[]> {
  const rules = new Map<string, PolicyRule[]>();
  for (const cr of clusterRoles) rules.set(cr.metadata.name, cr.aggregationRule ? [] : [...(cr.rules ?? [])]);
  for (let changed = true, rounds = 0; changed && rounds < 100; rounds++) {
    changed = false;
    for (const cr of clusterRoles) {
      const selectors = cr.aggregationRule?.clusterRoleSelectors;
      if (!cr.aggregationRule) continue;
      const have = rules.get(cr.metadata.name) ?? [];
      const keys = new Set(have.map(ruleKey));
      for (const other of clusterRoles) {
        if (other.metadata.name === cr.metadata.name) continue;
        if (!(selectors ?? []).some((s) => selectorMatches(s, other.metadata.labels))) continue;
        for (const r of rules.get(other.metadata.name) ?? []) {
          const k = ruleKey(r);
          if (keys.has(k)) continue;
          keys.add(k);
          have.push(r);
          changed = true;
        }
      }
      rules.set(cr.metadata.name, have);
    }
  }
  return rules;
}

function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.includes('*') || rule.verbs.includes(verb);
}

function resourceRuleAllows(rule: PolicyRule, a: ResourceAttributes): boolean {
  if (!verbMatches(rule, a.verb)) return false;
  const groups = rule.apiGroups ?? [];
  if (!groups.includes('*') && !groups.includes(a.apiGroup)) return false;
  // "pods/log" names a subresource; "*" covers everything, "*/scale" a subresource of any resource.
  const wanted = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const resourceOk = (rule.resources ?? []).some((r) => r === '*' || r === wanted || (a.subresource !== '' && r === `*/${a.subresource}`));
  if (!resourceOk) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(a.name);
}

function nonResourceRuleAllows(rule: PolicyRule, a: NonResourceAttributes): boolean {
  if (!verbMatches(rule, a.verb)) return false;
  // A trailing "*" is a prefix match: "/healthz/*" covers "/healthz/etcd" but not "/healthz".
  return (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === a.path || (u.endsWith('*') && a.path.startsWith(u.replace(/\*+$/, ''))));
}

/** True when rule grants the request; resource rules never grant non-resource requests and back. */
export function ruleAllows(rule: PolicyRule, a: RequestAttributes): boolean {
  return a.kind === 'resource' ? resourceRuleAllows(rule, a) : nonResourceRuleAllows(rule, a);
}

/** True when subject names user; a ServiceAccount subject without a namespace takes the binding's. */
export function subjectMatches(subject: Subject, user: UserInfo, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return subject.name === user.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const ns = subject.namespace || bindingNamespace;
      return ns !== '' && user.name === `system:serviceaccount:${ns}:${subject.name}`;
    }
    default:
      return false;
  }
}

/** The reference evaluator over one policy; build once per policy, ask many times. */
export class ReferenceRbac {
  private readonly clusterRules: Map<string, PolicyRule[]>;
  private readonly roleRules = new Map<string, PolicyRule[]>();

  constructor(private readonly policy: RbacPolicy) {
    this.clusterRules = aggregateClusterRoles(policy.clusterRoles);
    for (const r of policy.roles) this.roleRules.set(`${r.metadata.namespace ?? ''}/${r.metadata.name}`, [...(r.rules ?? [])]);
  }

  /** The effective rules of the ClusterRole name (aggregation applied), or undefined if none exists. */
  clusterRoleRules(name: string): PolicyRule[] | undefined {
    return this.clusterRules.get(name);
  }

  private refRules(ref: BindingObject['roleRef'], namespace: string): readonly PolicyRule[] {
    if (ref.apiGroup !== 'rbac.authorization.k8s.io') return [];
    if (ref.kind === 'ClusterRole') return this.clusterRules.get(ref.name) ?? [];
    if (ref.kind === 'Role' && namespace !== '') return this.roleRules.get(`${namespace}/${ref.name}`) ?? [];
    return [];
  }

  /**
   * Whether the request is allowed: system:masters always; otherwise a ClusterRoleBinding's role
   * anywhere, or a RoleBinding's role only for a request in the binding's own namespace (never for
   * cluster-scoped, all-namespace or non-resource requests).
   */
  allowed(a: RequestAttributes): boolean {
    if (a.user.groups.includes(PRIVILEGED_GROUP)) return true;
    for (const b of this.policy.clusterRoleBindings) {
      if (b.roleRef.kind !== 'ClusterRole') continue;
      if (!(b.subjects ?? []).some((s) => subjectMatches(s, a.user, ''))) continue;
      if (this.refRules(b.roleRef, '').some((r) => ruleAllows(r, a))) return true;
    }
    const ns = a.kind === 'resource' ? a.namespace : '';
    if (ns === '') return false;
    for (const b of this.policy.roleBindings) {
      if ((b.metadata.namespace ?? '') !== ns) continue;
      if (!(b.subjects ?? []).some((s) => subjectMatches(s, a.user, ns))) continue;
      if (this.refRules(b.roleRef, ns).some((r) => ruleAllows(r, a))) return true;
    }
    return false;
  }
}
