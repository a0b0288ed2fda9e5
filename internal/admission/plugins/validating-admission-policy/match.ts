/**
 * Which requests a policy's matchConstraints (or a binding's matchResources) select, as kube's
 * generic policy matcher decides: namespaceSelector, objectSelector, resourceRules less
 * excludeResourceRules, each rule by operation, group, version, resource/subresource, scope and
 * resourceNames; matchPolicy Equivalent also accepts the same group and resource in another
 * version.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { labelSelectorAsSelector, type LabelSelectorObject } from '../../../selectors/label-selector-object.js';
import type { LabelSelector } from '../../../selectors/labels.js';
import type { AdmissionAttributes } from '../../interface.js';

/** One rule of resourceRules / excludeResourceRules. */
interface RuleSpec {
  readonly operations?: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly apiVersions?: readonly string[];
  readonly resources?: readonly string[];
  readonly scope?: string;
  readonly resourceNames?: readonly string[];
}

/** A parsed matchResources. */
export interface CompiledMatch {
  readonly namespaceSelector: LabelSelector | undefined;
  readonly objectSelector: LabelSelector | undefined;
  readonly rules: readonly RuleSpec[] | undefined;
  readonly excludeRules: readonly RuleSpec[];
  readonly equivalent: boolean;
}

/** Parses matchResources; throws SelectorParseError for a bad selector. */
export function compileMatch(match: Record<string, unknown> | undefined, emptyRulesMatchAll: boolean): CompiledMatch {
  const sel = (s: unknown) => (s && typeof s === 'object' && Object.keys(s).length ? labelSelectorAsSelector(s as LabelSelectorObject) : undefined);
  const rules = (match?.resourceRules as RuleSpec[] | undefined) ?? [];
  return {
    namespaceSelector: sel(match?.namespaceSelector),
    objectSelector: sel(match?.objectSelector),
    rules: rules.length === 0 && emptyRulesMatchAll ? undefined : rules,
    excludeRules: (match?.excludeResourceRules as RuleSpec[] | undefined) ?? [],
    equivalent: (match?.matchPolicy ?? 'Equivalent') === 'Equivalent',
  };
}

const has = (list: readonly string[] | undefined, v: string) => !!list && (list.includes('*') || list.includes(v));

function resourceMatches(entries: readonly string[] | undefined, resource: string, subresource: string): boolean {
  for (const e of entries ?? []) {
    if (e === '*/*') return true;
    const [r, s = ''] = e.split('/', 2) as [string, string?];
    if ((r === '*' || r === resource) && (s === '*' ? true : s === subresource)) return true;
  }
  return false;
}

/** The name a request is about (CREATE: the object's name). */
function requestName(a: AdmissionAttributes): string {
  return a.name || (a.object?.metadata?.name ?? '');
}

function ruleMatches(rule: RuleSpec, a: AdmissionAttributes, equivalent: boolean): boolean {
  if (!has(rule.operations, a.operation)) return false;
  if (!has(rule.apiGroups, a.group)) return false;
  if (!has(rule.apiVersions, a.version) && !equivalent) return false;
  if (!resourceMatches(rule.resources, a.resource, a.subresource)) return false;
  const scope = rule.scope ?? '*';
  const clusterScoped = a.namespace === '' || (a.group === '' && a.resource === 'namespaces');
  if (scope === 'Cluster' && !clusterScoped) return false;
  if (scope === 'Namespaced' && clusterScoped) return false;
  if (rule.resourceNames && rule.resourceNames.length > 0 && !rule.resourceNames.includes(requestName(a))) return false;
  return true;
}

/** Labels of the namespace a request is in, or undefined when it cannot be found. */
export type NamespaceLabels = (name: string) => Readonly<Record<string, string>> | undefined;

const labelsOf = (o: KubeObject | undefined) => o?.metadata?.labels as Record<string, string> | undefined;

/** Whether the request is selected by m. */
export function matches(m: CompiledMatch, a: AdmissionAttributes, namespaceLabels: NamespaceLabels): boolean {
  if (m.rules) {
    const exact = m.rules.some((r) => ruleMatches(r, a, false));
    if (!exact && !(m.equivalent && m.rules.some((r) => has(r.apiVersions, '*') === false && ruleMatches(r, a, true)))) return false;
  }
  if (m.excludeRules.some((r) => ruleMatches(r, a, false))) return false;
  if (m.objectSelector) {
    if (!m.objectSelector.matches(labelsOf(a.object) ?? {}) && !(a.oldObject && m.objectSelector.matches(labelsOf(a.oldObject) ?? {}))) return false;
  }
  if (m.namespaceSelector) {
    const isNamespace = a.group === '' && a.resource === 'namespaces';
    if (isNamespace) {
      if (!m.namespaceSelector.matches(labelsOf(a.object ?? a.oldObject) ?? {})) return false;
    } else if (a.namespace !== '') {
      if (!m.namespaceSelector.matches(namespaceLabels(a.namespace) ?? {})) return false;
    }
  }
  return true;
}
