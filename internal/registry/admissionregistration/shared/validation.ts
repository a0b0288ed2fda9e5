/**
 * admissionregistration.k8s.io validation (kube's pkg/apis/admissionregistration/validation, the
 * parts users meet): webhooks with unique fully qualified names, one client config, side effects,
 * review versions, timeouts and rules; policies with a failure policy, match constraints and
 * validations or mutations; bindings with a policy name and validation actions.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { validateLabelSelector, type LabelSelectorObject } from '../../../selectors/label-selector-object.js';
import { childPath, duplicate, forbidden, indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../../validation/label-values.js';
import { arrayAt, asObject, numberAt, objectAt, stringAt, type JsonObject } from '../../core/shared/json-value.js';

const operations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const scopes = ['*', 'Cluster', 'Namespaced'];
const failurePolicies = ['Fail', 'Ignore'];
const matchPolicies = ['Equivalent', 'Exact'];
const sideEffectClasses = ['None', 'NoneOnDryRun'];
const reviewVersions = ['v1', 'v1beta1'];
const validationActions = ['Audit', 'Deny', 'Warn'];

/** IsFullyQualifiedName: a DNS subdomain with at least three segments. */
function validateFullyQualifiedName(name: string, path: string): FieldError[] {
  if (!name) return [required(path, '')];
  const errs = isDNS1123Subdomain(name).map((m) => invalid(path, name, m));
  if (errs.length === 0 && name.split('.').length < 3) errs.push(invalid(path, name, 'should be a domain with at least three segments separated by dots'));
  return errs;
}

function validateStringList(values: unknown[], path: string, what: string): FieldError[] {
  const errs: FieldError[] = [];
  if (values.length === 0) errs.push(required(path, ''));
  if (values.length > 1 && values.includes('*')) errs.push(invalid(path, values, `if '*' is present, must not specify other ${what}`));
  return errs;
}

/** validateRule / validateRuleWithOperations. */
export function validateRule(rule: JsonObject, path: string, withOperations: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (withOperations) {
    const ops = arrayAt(rule, 'operations');
    errs.push(...validateStringList(ops, childPath(path, 'operations'), 'operations'));
    ops.forEach((op, i) => {
      if (typeof op !== 'string' || !operations.includes(op)) errs.push(notSupported(indexPath(childPath(path, 'operations'), i), op, operations));
    });
  }
  errs.push(...validateStringList(arrayAt(rule, 'apiGroups'), childPath(path, 'apiGroups'), 'API groups'));
  const versions = arrayAt(rule, 'apiVersions');
  errs.push(...validateStringList(versions, childPath(path, 'apiVersions'), 'API versions'));
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(indexPath(childPath(path, 'apiVersions'), i), ''));
  });
  const resources = arrayAt(rule, 'resources');
  if (resources.length === 0) errs.push(required(childPath(path, 'resources'), ''));
  const scope = rule.scope;
  if (scope !== undefined && scope !== null && (typeof scope !== 'string' || !scopes.includes(scope))) errs.push(notSupported(childPath(path, 'scope'), scope, scopes));
  return errs;
}

function validateClientConfig(cc: JsonObject | undefined, path: string): FieldError[] {
  const url = cc?.url;
  const service = objectAt(cc, 'service');
  const hasURL = url !== undefined && url !== null;
  if (hasURL === !!service) return [required(path, 'exactly one of url or service is required')];
  if (hasURL) {
    const u = String(url);
    if (!u.startsWith('https://')) return [invalid(childPath(path, 'url'), u, "'https' is the only allowed URL scheme")];
    return [];
  }
  const errs: FieldError[] = [];
  if (!stringAt(service, 'name')) errs.push(required(childPath(path, 'service', 'name'), 'service name is required'));
  if (!stringAt(service, 'namespace')) errs.push(required(childPath(path, 'service', 'namespace'), 'service namespace is required'));
  const port = numberAt(service, 'port');
  if (port !== undefined && (port < 1 || port > 65535)) errs.push(invalid(childPath(path, 'service', 'port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
  return errs;
}

/** The webhooks of a webhook configuration. Never mutates. */
export function validateWebhookConfiguration(obj: KubeObject, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  arrayAt(obj, 'webhooks').forEach((raw, i) => {
    const hook = asObject(raw) ?? {};
    const path = indexPath('webhooks', i);
    const name = stringAt(hook, 'name');
    errs.push(...validateFullyQualifiedName(name, childPath(path, 'name')));
    if (name && names.has(name)) errs.push(duplicate(childPath(path, 'name'), name));
    names.add(name);
    arrayAt(hook, 'rules').forEach((r, j) => errs.push(...validateRule(asObject(r) ?? {}, indexPath(childPath(path, 'rules'), j), true)));
    const fp = hook.failurePolicy;
    if (fp !== undefined && fp !== null && !failurePolicies.includes(String(fp))) errs.push(notSupported(childPath(path, 'failurePolicy'), fp, failurePolicies));
    const mp = hook.matchPolicy;
    if (mp !== undefined && mp !== null && !matchPolicies.includes(String(mp))) errs.push(notSupported(childPath(path, 'matchPolicy'), mp, matchPolicies));
    const se = hook.sideEffects;
    if (se === undefined || se === null) errs.push(required(childPath(path, 'sideEffects'), `must specify one of ${sideEffectClasses.join(', ')}`));
    else if (!sideEffectClasses.includes(String(se))) errs.push(notSupported(childPath(path, 'sideEffects'), se, sideEffectClasses));
    const timeout = numberAt(hook, 'timeoutSeconds');
    if (timeout !== undefined && (timeout > 30 || timeout < 1)) errs.push(invalid(childPath(path, 'timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'));
    for (const f of ['namespaceSelector', 'objectSelector']) {
      const sel = objectAt(hook, f);
      if (sel) errs.push(...validateLabelSelector(sel as LabelSelectorObject, {}, childPath(path, f)));
    }
    errs.push(...validateClientConfig(objectAt(hook, 'clientConfig'), childPath(path, 'clientConfig')));
    const versions = arrayAt(hook, 'admissionReviewVersions');
    const vp = childPath(path, 'admissionReviewVersions');
    if (versions.length === 0) errs.push(required(vp, `must specify one of ${reviewVersions.join(', ')}`));
    else {
      const seen = new Set<unknown>();
      versions.forEach((v, j) => {
        if (seen.has(v)) return errs.push(invalid(indexPath(vp, j), v, 'duplicate version'));
        seen.add(v);
        for (const m of isDNS1035Label(String(v))) errs.push(invalid(indexPath(vp, j), v, m));
        return undefined;
      });
      if (!versions.some((v) => reviewVersions.includes(String(v)))) errs.push(invalid(vp, versions, `must include at least one of ${reviewVersions.join(', ')}`));
    }
    const rp = hook.reinvocationPolicy;
    if (mutating && rp !== undefined && rp !== null && rp !== 'Never' && rp !== 'IfNeeded') errs.push(notSupported(childPath(path, 'reinvocationPolicy'), rp, ['IfNeeded', 'Never']));
  });
  return errs;
}

/** validateMatchResources. */
function validateMatchResources(match: JsonObject | undefined, path: string, requireRules: boolean): FieldError[] {
  if (!match) return requireRules ? [required(path, '')] : [];
  const errs: FieldError[] = [];
  const rules = arrayAt(match, 'resourceRules');
  if (requireRules && rules.length === 0) errs.push(required(childPath(path, 'resourceRules'), ''));
  rules.forEach((r, i) => errs.push(...validateRule(asObject(r) ?? {}, indexPath(childPath(path, 'resourceRules'), i), true)));
  arrayAt(match, 'excludeResourceRules').forEach((r, i) => errs.push(...validateRule(asObject(r) ?? {}, indexPath(childPath(path, 'excludeResourceRules'), i), true)));
  const mp = match.matchPolicy;
  if (mp !== undefined && mp !== null && !matchPolicies.includes(String(mp))) errs.push(notSupported(childPath(path, 'matchPolicy'), mp, matchPolicies));
  for (const f of ['namespaceSelector', 'objectSelector']) {
    const sel = objectAt(match, f);
    if (sel) errs.push(...validateLabelSelector(sel as LabelSelectorObject, {}, childPath(path, f)));
  }
  return errs;
}

/** A Validating- or MutatingAdmissionPolicy's spec. Never mutates. */
export function validateAdmissionPolicy(obj: KubeObject, mutating: boolean): FieldError[] {
  const spec = asObject(obj.spec);
  const errs: FieldError[] = [];
  const fp = spec?.failurePolicy;
  if (fp === undefined || fp === null) errs.push(required('spec.failurePolicy', ''));
  else if (!failurePolicies.includes(String(fp))) errs.push(notSupported('spec.failurePolicy', fp, failurePolicies));
  errs.push(...validateMatchResources(objectAt(spec, 'matchConstraints'), 'spec.matchConstraints', true));
  const paramKind = objectAt(spec, 'paramKind');
  if (paramKind) {
    if (!stringAt(paramKind, 'apiVersion')) errs.push(required('spec.paramKind.apiVersion', ''));
    if (!stringAt(paramKind, 'kind')) errs.push(required('spec.paramKind.kind', ''));
  }
  if (mutating) {
    const mutations = arrayAt(spec, 'mutations');
    if (mutations.length === 0) errs.push(required('spec.mutations', 'mutations must contain at least one item'));
    const rp = spec?.reinvocationPolicy;
    if (rp !== 'Never' && rp !== 'IfNeeded') errs.push(notSupported('spec.reinvocationPolicy', rp ?? '', ['IfNeeded', 'Never']));
  } else {
    const validations = arrayAt(spec, 'validations');
    if (validations.length === 0 && arrayAt(spec, 'auditAnnotations').length === 0) {
      errs.push(required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
    }
    validations.forEach((v, i) => {
      if (!stringAt(asObject(v), 'expression')) errs.push(required(childPath(indexPath('spec.validations', i), 'expression'), 'expression is not specified'));
    });
  }
  arrayAt(spec, 'variables').forEach((v, i) => {
    const variable = asObject(v);
    if (!stringAt(variable, 'name')) errs.push(required(childPath(indexPath('spec.variables', i), 'name'), 'name is not specified'));
    if (!stringAt(variable, 'expression')) errs.push(required(childPath(indexPath('spec.variables', i), 'expression'), 'expression is not specified'));
  });
  return errs;
}

/** A policy binding's spec. Never mutates. */
export function validatePolicyBinding(obj: KubeObject, mutating: boolean): FieldError[] {
  const spec = asObject(obj.spec);
  const errs: FieldError[] = [];
  const policyName = stringAt(spec, 'policyName');
  if (!policyName) errs.push(required('spec.policyName', ''));
  else errs.push(...isDNS1123Subdomain(policyName).map((m) => invalid('spec.policyName', policyName, m)));
  const paramRef = objectAt(spec, 'paramRef');
  if (paramRef) {
    const hasName = !!stringAt(paramRef, 'name');
    const hasSelector = paramRef.selector !== undefined && paramRef.selector !== null;
    if (hasName && hasSelector) errs.push(forbidden('spec.paramRef.name', 'name and selector are mutually exclusive'));
    if (!hasName && !hasSelector) errs.push(required('spec.paramRef', 'one of name or selector must be specified'));
    const action = paramRef.parameterNotFoundAction;
    if (action === undefined || action === null) errs.push(required('spec.paramRef.parameterNotFoundAction', ''));
    else if (action !== 'Allow' && action !== 'Deny') errs.push(notSupported('spec.paramRef.parameterNotFoundAction', action, ['Allow', 'Deny']));
  }
  errs.push(...validateMatchResources(objectAt(spec, 'matchResources'), 'spec.matchResources', false));
  if (!mutating) {
    const actions = arrayAt(spec, 'validationActions');
    if (actions.length === 0) errs.push(required('spec.validationActions', 'at least one validation action is required'));
    const seen = new Set<unknown>();
    actions.forEach((a, i) => {
      const p = indexPath('spec.validationActions', i);
      if (seen.has(a)) errs.push(duplicate(p, a));
      seen.add(a);
      if (typeof a !== 'string' || !validationActions.includes(a)) errs.push(notSupported(p, a, validationActions));
    });
    if (actions.includes('Deny') && actions.includes('Warn')) {
      errs.push(invalid('spec.validationActions', actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
    }
  }
  return errs;
}
