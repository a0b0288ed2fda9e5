/**
 * Classification (kube's apf matching): a request belongs to the first FlowSchema, in
 * matchingPrecedence order then by name, one of whose rules matches it: a subject matches the
 * user and, for a resource request, a resource rule matches its verb, API group, resource (with
 * "/subresource") and namespace (cluster-scoped requests need clusterScope), or, for any other
 * request, a non-resource rule matches its verb and path ("*" and trailing-"*" prefixes). The
 * FlowSchemas are compiled once per configuration change into set lookups: nothing is parsed,
 * allocated or compiled per request except the Classification of a distinguished flow.
 */
import type { RequestInfo } from '../../request/request-info.js';
import type { UserInfo } from '../../request/context.js';
import type { Classification } from '../interface.js';
import type { FlowSchemaObject, NonResourcePolicyRule, PolicyRulesWithSubjects, ResourcePolicyRule, Subject } from './interface.js';

/** A set of strings where "*" (or the given wildcard) matches everything. */
class WildSet {
  readonly all: boolean;
  private readonly values: ReadonlySet<string>;
  constructor(values: readonly string[] | undefined, wildcard = '*') {
    this.all = (values ?? []).includes(wildcard);
    this.values = new Set(values ?? []);
  }
  has(v: string): boolean {
    return this.all || this.values.has(v);
  }
}

const serviceAccountPrefix = 'system:serviceaccount:';

/** Subjects of one rule as lookups. */
class SubjectMatcher {
  private anyUser = false;
  private anyGroup = false;
  private readonly users = new Set<string>();
  private readonly groups = new Set<string>();
  /** Namespaces whose every service account matches (name "*"). */
  private readonly saNamespaces = new Set<string>();

  constructor(subjects: readonly Subject[]) {
    for (const s of subjects) {
      if (s.kind === 'User' && s.user) {
        if (s.user.name === '*') this.anyUser = true;
        else this.users.add(s.user.name);
      } else if (s.kind === 'Group' && s.group) {
        if (s.group.name === '*') this.anyGroup = true;
        else this.groups.add(s.group.name);
      } else if (s.kind === 'ServiceAccount' && s.serviceAccount) {
        const { namespace, name } = s.serviceAccount;
        if (name === '*') this.saNamespaces.add(namespace);
        else this.users.add(`${serviceAccountPrefix}${namespace}:${name}`);
      }
    }
  }

  matches(user: UserInfo): boolean {
    if (this.anyUser || this.anyGroup || this.users.has(user.name)) return true;
    if (this.groups.size > 0) for (const g of user.groups) if (this.groups.has(g)) return true;
    if (this.saNamespaces.size > 0 && user.name.startsWith(serviceAccountPrefix)) {
      const rest = user.name.slice(serviceAccountPrefix.length);
      const colon = rest.indexOf(':');
      // kube's serviceaccount.SplitUsername: exactly "<namespace>:<name>".
      if (colon > 0 && colon === rest.lastIndexOf(':') && colon < rest.length - 1 && this.saNamespaces.has(rest.slice(0, colon))) return true;
    }
    return false;
  }
}

class ResourceRuleMatcher {
  private readonly verbs: WildSet;
  private readonly apiGroups: WildSet;
  private readonly resources: WildSet;
  private readonly namespaces: WildSet;
  private readonly clusterScope: boolean;
  constructor(r: ResourcePolicyRule) {
    this.verbs = new WildSet(r.verbs);
    this.apiGroups = new WildSet(r.apiGroups);
    this.resources = new WildSet(r.resources);
    this.namespaces = new WildSet(r.namespaces);
    this.clusterScope = r.clusterScope === true;
  }
  matches(ri: RequestInfo): boolean {
    if (!this.verbs.has(ri.verb)) return false;
    if (!this.resources.all && !this.resources.has(ri.subresource ? `${ri.resource}/${ri.subresource}` : ri.resource)) return false;
    if (!this.apiGroups.has(ri.apiGroup)) return false;
    if (ri.namespace === '') return this.clusterScope;
    return this.namespaces.has(ri.namespace);
  }
}

class NonResourceRuleMatcher {
  private readonly verbs: WildSet;
  private readonly urls: WildSet;
  private readonly prefixes: readonly string[];
  constructor(r: NonResourcePolicyRule) {
    this.verbs = new WildSet(r.verbs);
    this.urls = new WildSet(r.nonResourceURLs);
    this.prefixes = r.nonResourceURLs.filter((u) => u.length > 1 && u.endsWith('*')).map((u) => u.slice(0, -1));
  }
  matches(ri: RequestInfo): boolean {
    if (!this.verbs.has(ri.verb)) return false;
    if (this.urls.has(ri.path)) return true;
    for (const p of this.prefixes) if (ri.path.startsWith(p)) return true;
    return false;
  }
}

class RuleMatcher {
  private readonly subjects: SubjectMatcher;
  private readonly resourceRules: readonly ResourceRuleMatcher[];
  private readonly nonResourceRules: readonly NonResourceRuleMatcher[];
  constructor(rule: PolicyRulesWithSubjects) {
    this.subjects = new SubjectMatcher(rule.subjects ?? []);
    this.resourceRules = (rule.resourceRules ?? []).map((r) => new ResourceRuleMatcher(r));
    this.nonResourceRules = (rule.nonResourceRules ?? []).map((r) => new NonResourceRuleMatcher(r));
  }
  matches(user: UserInfo, ri: RequestInfo): boolean {
    if (!this.subjects.matches(user)) return false;
    const rules = ri.isResourceRequest ? this.resourceRules : this.nonResourceRules;
    for (const r of rules) if (r.matches(ri)) return true;
    return false;
  }
}

/** One FlowSchema, compiled, with the level it sends requests to. */
export interface CompiledFlowSchema {
  readonly name: string;
  readonly matchingPrecedence: number;
  matches(user: UserInfo, ri: RequestInfo): boolean;
  /** The classification of a matching request (shared for undistinguished flows). */
  classify(user: UserInfo, ri: RequestInfo): Classification;
}

/** What a FlowSchema's level is, as the digest found it. */
export interface LevelRef {
  readonly name: string;
  readonly uid: string;
  readonly exempt: boolean;
}

/** Compiles fs, sending its requests to level. */
export function compileFlowSchema(fs: FlowSchemaObject, level: LevelRef): CompiledFlowSchema {
  const rules = (fs.spec?.rules ?? []).map((r) => new RuleMatcher(r));
  const base: Classification = {
    flowSchemaName: fs.metadata.name ?? '',
    flowSchemaUID: fs.metadata.uid ?? '',
    priorityLevelName: level.name,
    priorityLevelUID: level.uid,
    flowDistinguisher: '',
    exempt: level.exempt,
  };
  const method = fs.spec?.distinguisherMethod?.type;
  return {
    name: base.flowSchemaName,
    matchingPrecedence: fs.spec?.matchingPrecedence ?? 1000,
    matches(user, ri) {
      for (const r of rules) if (r.matches(user, ri)) return true;
      return false;
    },
    classify(user, ri) {
      if (method === 'ByUser') return { ...base, flowDistinguisher: user.name };
      if (method === 'ByNamespace') return ri.namespace ? { ...base, flowDistinguisher: ri.namespace } : base;
      return base;
    },
  };
}

/** kube's FlowSchema order: matchingPrecedence ascending, then name. */
export function byPrecedence(a: { name: string; matchingPrecedence: number }, b: { name: string; matchingPrecedence: number }): number {
  if (a.matchingPrecedence !== b.matchingPrecedence) return a.matchingPrecedence - b.matchingPrecedence;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The first matching schema's classification, or undefined when none matches. Schemas must be sorted byPrecedence. */
export function classify(schemas: readonly CompiledFlowSchema[], user: UserInfo, ri: RequestInfo): Classification | undefined {
  for (const fs of schemas) if (fs.matches(user, ri)) return fs.classify(user, ri);
  return undefined;
}
