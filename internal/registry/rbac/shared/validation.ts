/**
 * RBAC validation shared by roles and bindings (kube's pkg/apis/rbac/validation): policy rules
 * (verbs, and either resource rules with API groups and resources or non-resource URLs), subjects
 * of kind User, Group or ServiceAccount, and role references into rbac.authorization.k8s.io.
 */
import { childPath, indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { isValidPathSegmentName } from '../../../validation/label-values.js';
import { arrayAt, asObject, stringAt, type JsonObject } from '../../core/shared/json-value.js';
import { nameIsDNSSubdomain } from '../../generic/object-meta-validation.js';

/** rbac.GroupName. */
export const rbacGroup = 'rbac.authorization.k8s.io';

/** ValidatePolicyRule. */
export function validatePolicyRule(rule: JsonObject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (arrayAt(rule, 'verbs').length === 0) errs.push(required(childPath(path, 'verbs'), 'verbs must contain at least one value'));
  const urls = arrayAt(rule, 'nonResourceURLs');
  if (urls.length > 0) {
    if (namespaced) errs.push(invalid(childPath(path, 'nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (arrayAt(rule, 'apiGroups').length > 0 || arrayAt(rule, 'resources').length > 0 || arrayAt(rule, 'resourceNames').length > 0) {
      errs.push(invalid(childPath(path, 'nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (arrayAt(rule, 'apiGroups').length === 0) errs.push(required(childPath(path, 'apiGroups'), 'resource rules must supply at least one api group'));
  if (arrayAt(rule, 'resources').length === 0) errs.push(required(childPath(path, 'resources'), 'resource rules must supply at least one resource'));
  return errs;
}

/** The rules of a Role or ClusterRole. */
export function validateRules(rules: unknown[], namespaced: boolean): FieldError[] {
  return rules.flatMap((r, i) => validatePolicyRule(asObject(r) ?? {}, namespaced, indexPath('rules', i)));
}

/** ValidateRoleBindingSubject. */
export function validateSubject(subject: JsonObject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = stringAt(subject, 'name');
  const apiGroup = stringAt(subject, 'apiGroup');
  if (!name) errs.push(required(childPath(path, 'name'), ''));
  switch (stringAt(subject, 'kind')) {
    case 'ServiceAccount':
      if (name) for (const m of nameIsDNSSubdomain(name, false)) errs.push(invalid(childPath(path, 'name'), name, m));
      if (apiGroup) errs.push(notSupported(childPath(path, 'apiGroup'), apiGroup, ['']));
      if (!namespaced && !stringAt(subject, 'namespace')) errs.push(required(childPath(path, 'namespace'), ''));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== rbacGroup) errs.push(notSupported(childPath(path, 'apiGroup'), apiGroup, [rbacGroup]));
      break;
    default:
      errs.push(notSupported(childPath(path, 'kind'), stringAt(subject, 'kind'), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

/** The roleRef and subjects of a RoleBinding (kinds Role or ClusterRole) or ClusterRoleBinding (ClusterRole only). */
export function validateBinding(obj: JsonObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = asObject(obj.roleRef);
  const apiGroup = stringAt(ref, 'apiGroup');
  if (apiGroup !== rbacGroup) errs.push(notSupported('roleRef.apiGroup', apiGroup, [rbacGroup]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const kind = stringAt(ref, 'kind');
  if (!kinds.includes(kind)) errs.push(notSupported('roleRef.kind', kind, kinds));
  const name = stringAt(ref, 'name');
  if (!name) errs.push(required('roleRef.name', ''));
  else for (const m of isValidPathSegmentName(name)) errs.push(invalid('roleRef.name', name, m));
  arrayAt(obj, 'subjects').forEach((s, i) => errs.push(...validateSubject(asObject(s) ?? {}, namespaced, indexPath('subjects', i))));
  return errs;
}

/** The roleRef of a binding may not change. */
export function validateRoleRefUnchanged(obj: JsonObject, old: JsonObject): FieldError[] {
  const a = asObject(obj.roleRef) ?? {};
  const b = asObject(old.roleRef) ?? {};
  const same = ['apiGroup', 'kind', 'name'].every((f) => stringAt(a, f) === stringAt(b, f));
  return same ? [] : [invalid('roleRef', { apiGroup: stringAt(a, 'apiGroup'), kind: stringAt(a, 'kind'), name: stringAt(a, 'name') }, 'cannot change roleRef')];
}

/** rbac/v1 SetDefaults_RoleBinding / ClusterRoleBinding and SetDefaults_Subject. Mutates obj. */
export function defaultBinding(obj: JsonObject): void {
  const ref = asObject(obj.roleRef);
  if (ref && !stringAt(ref, 'apiGroup')) ref.apiGroup = rbacGroup;
  for (const raw of arrayAt(obj, 'subjects')) {
    const s = asObject(raw);
    if (!s || stringAt(s, 'apiGroup')) continue;
    if (s.kind === 'ServiceAccount') s.apiGroup = '';
    else if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = rbacGroup;
  }
}
