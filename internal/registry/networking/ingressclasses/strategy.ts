/**
 * IngressClass rules (kube's pkg/registry/networking/ingressclass): a domain-prefixed controller
 * that never changes, a parameters reference with a kind, name and (defaulted) scope, and
 * generation tracking.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, notSupported, required, tooLong, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Subdomain, regexError } from '../../../validation/label-values.js';
import { validateImmutableField } from '../../core/shared/field-immutable.js';
import { asObject, objectAt, stringAt } from '../../core/shared/json-value.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRegexp = new RegExp(`^${httpPathFmt}$`);

/** validation.IsDomainPrefixedPath. */
export function validateDomainPrefixedPath(value: string, path: string): FieldError[] {
  if (value.length === 0) return [required(path, '')];
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = value.slice(0, slash);
  const rest = value.slice(slash + 1);
  const errs = isDNS1123Subdomain(host).map((m) => invalid(path, host, m));
  if (!httpPathRegexp.test(rest)) errs.push(invalid(path, rest, regexError('Invalid path', httpPathFmt)));
  return errs;
}

/** ValidateIngressClass without metadata. Never mutates. */
export function validateIngressClass(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const controller = stringAt(spec, 'controller');
  const errs: FieldError[] = [];
  if (controller.length > 250) errs.push(tooLong('spec.controller', 250));
  errs.push(...validateDomainPrefixedPath(controller, 'spec.controller'));
  const params = objectAt(spec, 'parameters');
  if (params) {
    if (!stringAt(params, 'kind')) errs.push(required('spec.parameters.kind', ''));
    if (!stringAt(params, 'name')) errs.push(required('spec.parameters.name', ''));
    const scope = params.scope;
    if (scope === undefined || scope === null) errs.push(required('spec.parameters.scope', ''));
    else if (scope !== 'Cluster' && scope !== 'Namespace') errs.push(notSupported('spec.parameters.scope', scope, ['Cluster', 'Namespace']));
    else if (scope === 'Namespace' && !stringAt(params, 'namespace')) errs.push(required('spec.parameters.namespace', '`parameters.scope` is set to "Namespace"'));
    else if (scope === 'Cluster' && stringAt(params, 'namespace')) errs.push(required('spec.parameters.namespace', '`parameters.scope` is set to "Cluster"'));
  }
  return errs;
}

/** The IngressClass strategy. */
export const ingressClassStrategy = defineStrategy({
  namespaced: false,
  tracksGeneration: true,
  validate: validateIngressClass,
  validateUpdate: (obj, old) => [
    ...validateIngressClass(obj),
    ...validateImmutableField(asObject(obj.spec)?.controller, asObject(old.spec)?.controller, 'spec.controller'),
  ],
});

/** networking/v1 SetDefaults_IngressClass: a parameters reference is cluster-scoped unless it says otherwise. Mutates obj. */
export function defaultIngressClass(obj: KubeObject): void {
  const params = objectAt(asObject(obj.spec), 'parameters');
  if (params && (params.scope === undefined || params.scope === null)) params.scope = 'Cluster';
}
