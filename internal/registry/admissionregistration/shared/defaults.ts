/**
 * admissionregistration.k8s.io defaulting (SetDefaults_ValidatingWebhook, _MutatingWebhook,
 * _Rule, _ServiceReference, _MatchResources, _ParamRef and the policy specs): failurePolicy Fail,
 * matchPolicy Equivalent, empty namespace and object selectors, timeoutSeconds 10,
 * reinvocationPolicy Never, rule scope "*", service port 443, parameterNotFoundAction Deny.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { arrayAt, asObject, type JsonObject } from '../../core/shared/json-value.js';

function setIfNil(o: JsonObject, key: string, value: unknown): void {
  if (o[key] === undefined || o[key] === null) o[key] = value;
}

/** SetDefaults_Rule on each rule of a list. */
function defaultRules(rules: unknown[]): void {
  for (const r of rules) {
    const rule = asObject(r);
    if (rule) setIfNil(rule, 'scope', '*');
  }
}

function defaultService(clientConfig: JsonObject | undefined): void {
  const service = asObject(clientConfig?.service);
  if (service) setIfNil(service, 'port', 443);
}

/** Defaults the webhooks of a Validating- or MutatingWebhookConfiguration. Mutates obj. */
export function defaultWebhookConfiguration(obj: KubeObject, mutating: boolean): void {
  for (const w of arrayAt(obj, 'webhooks')) {
    const hook = asObject(w);
    if (!hook) continue;
    setIfNil(hook, 'failurePolicy', 'Fail');
    setIfNil(hook, 'matchPolicy', 'Equivalent');
    setIfNil(hook, 'namespaceSelector', {});
    setIfNil(hook, 'objectSelector', {});
    setIfNil(hook, 'timeoutSeconds', 10);
    if (mutating) setIfNil(hook, 'reinvocationPolicy', 'Never');
    defaultRules(arrayAt(hook, 'rules'));
    defaultService(asObject(hook.clientConfig));
  }
}

/** SetDefaults_MatchResources on a matchConstraints / matchResources object. */
export function defaultMatchResources(match: JsonObject | undefined): void {
  if (!match) return;
  setIfNil(match, 'matchPolicy', 'Equivalent');
  setIfNil(match, 'namespaceSelector', {});
  setIfNil(match, 'objectSelector', {});
  defaultRules(arrayAt(match, 'resourceRules'));
  defaultRules(arrayAt(match, 'excludeResourceRules'));
}

/** Defaults a Validating- or MutatingAdmissionPolicy: failurePolicy Fail and its match constraints. Mutates obj. */
export function defaultAdmissionPolicy(obj: KubeObject): void {
  if (obj.spec === undefined || obj.spec === null) obj.spec = {};
  const spec = asObject(obj.spec);
  if (!spec) return;
  setIfNil(spec, 'failurePolicy', 'Fail');
  defaultMatchResources(asObject(spec.matchConstraints));
}

/** Defaults a policy binding: its match resources and parameterNotFoundAction Deny. Mutates obj. */
export function defaultPolicyBinding(obj: KubeObject): void {
  const spec = asObject(obj.spec);
  if (!spec) return;
  defaultMatchResources(asObject(spec.matchResources));
  const paramRef = asObject(spec.paramRef);
  if (paramRef) setIfNil(paramRef, 'parameterNotFoundAction', 'Deny');
}
