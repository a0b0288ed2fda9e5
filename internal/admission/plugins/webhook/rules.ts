/**
 * Webhook rule matching (kube's predicates/rules): operation, API group, version, resource with
 * "*" and "<resource>/<subresource>" forms ("*\/status", "pods/*", "*\/*"), and scope, where a
 * namespace object counts as cluster-scoped. Also kube's exemption of admission configuration
 * objects, which no webhook ever sees.
 */
import type { WebhookRule } from './types.js';

/** What a rule is matched against. */
export interface RuleTarget {
  readonly operation: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  /** "" for cluster-scoped objects. */
  readonly namespace: string;
}

function exactOrWildcard(items: readonly string[] | undefined, requested: string): boolean {
  if (!items) return false;
  for (const item of items) if (item === '*' || item === requested) return true;
  return false;
}

function isNamespaceResource(t: RuleTarget): boolean {
  return t.group === '' && t.version === 'v1' && t.resource === 'namespaces';
}

function scopeMatches(scope: string | undefined, t: RuleTarget): boolean {
  if (scope === undefined || scope === '*') return true;
  if (scope === 'Namespaced') return !isNamespaceResource(t) && t.namespace !== '';
  if (scope === 'Cluster') return isNamespaceResource(t) || t.namespace === '';
  return false;
}

function resourceMatches(resources: readonly string[] | undefined, t: RuleTarget): boolean {
  if (!resources) return false;
  for (const entry of resources) {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    if ((res === '*' || res === t.resource) && (sub === '*' || sub === t.subresource)) return true;
  }
  return false;
}

/** Whether rule matches the request. */
export function ruleMatches(rule: WebhookRule, t: RuleTarget): boolean {
  return (
    scopeMatches(rule.scope, t) &&
    exactOrWildcard(rule.operations, t.operation) &&
    exactOrWildcard(rule.apiGroups, t.group) &&
    exactOrWildcard(rule.apiVersions, t.version) &&
    resourceMatches(rule.resources, t)
  );
}

const exemptKinds = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
]);

/** kube's IsExemptAdmissionConfigurationResource: webhooks never see writes of these kinds. */
export function isExemptAdmissionConfiguration(group: string, kind: string): boolean {
  return group === 'admissionregistration.k8s.io' && exemptKinds.has(kind);
}
