/**
 * kube's audit policy validation (k8s.io/apiserver/pkg/apis/audit/validation): each rule's level
 * must be one of the four, non-resource URLs must start with "/" and may end in "*" only, a group
 * must be a DNS subdomain, resourceNames need resources, omitStages must name stages, and a rule
 * cannot cover resources and non-resource URLs at once. The policy-level omitStages are not
 * checked (kube does not check them either).
 */
import { childPath, fieldErrorsMessage, indexPath, invalid, notSupported, required, type FieldError } from '../../validation/field-error.js';
import { isDNS1123Subdomain } from '../../validation/label-values.js';
import type { AuditPolicy, GroupResources, PolicyRule } from './types.js';
import { auditLevels, auditStages } from './types.js';

function validateLevel(level: string, path: string): FieldError[] {
  if ((auditLevels as readonly string[]).includes(level)) return [];
  if (level === '') return [required(path, '')];
  return [notSupported(path, level, auditLevels)];
}

function validateNonResourceURLs(urls: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  urls.forEach((url, i) => {
    if (url === '*') return;
    if (!url.startsWith('/')) errs.push(invalid(indexPath(path, i), url, "non-resource URL rules must begin with a '/' character"));
    if (url !== '' && url.slice(0, -1).includes('*')) errs.push(invalid(indexPath(path, i), url, "non-resource URL wildcards '*' must be the final character of the rule"));
  });
  return errs;
}

function validateResources(groups: readonly GroupResources[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const g of groups) {
    // kube reports these under "resources.group", without the index.
    if (g.group !== '') {
      const msgs = isDNS1123Subdomain(g.group);
      if (msgs.length > 0) errs.push(invalid(childPath(path, 'group'), g.group, msgs.join(',')));
    }
    if (g.resourceNames.length > 0 && g.resources.length === 0) {
      errs.push(invalid(childPath(path, 'resourceNames'), g.resourceNames, 'using resourceNames requires at least one resource'));
    }
  }
  return errs;
}

function validateOmitStages(stages: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  stages.forEach((stage, i) => {
    if (!(auditStages as readonly string[]).includes(stage)) errs.push(invalid(indexPath(path, i), stage, `allowed stages are ${auditStages.join(',')}`));
  });
  return errs;
}

function validateRule(rule: PolicyRule, path: string): FieldError[] {
  const errs = [
    ...validateLevel(rule.level, childPath(path, 'level')),
    ...validateNonResourceURLs(rule.nonResourceURLs, childPath(path, 'nonResourceURLs')),
    ...validateResources(rule.resources, childPath(path, 'resources')),
    ...validateOmitStages(rule.omitStages, childPath(path, 'omitStages')),
  ];
  if (rule.nonResourceURLs.length > 0 && (rule.resources.length > 0 || rule.namespaces.length > 0)) {
    errs.push(invalid(childPath(path, 'nonResourceURLs'), rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
  }
  return errs;
}

/** The policy's field errors (empty when valid). */
export function validatePolicy(policy: AuditPolicy): FieldError[] {
  return policy.rules.flatMap((rule, i) => validateRule(rule, indexPath('rules', i)));
}

/** kube's ErrorList.ToAggregate().Error() of the policy's errors ('' when valid). */
export function policyErrorsMessage(policy: AuditPolicy): string {
  return fieldErrorsMessage(validatePolicy(policy));
}
