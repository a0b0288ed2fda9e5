/**
 * HorizontalPodAutoscaler validation (kube's pkg/apis/autoscaling/validation, on the v2 form):
 * replica bounds, the scale target reference, each metric naming one source of its type with a
 * sensible target, and scaling behavior rules and policies within kube's limits.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childPath, forbidden, indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { isValidPathSegmentName } from '../../../validation/label-values.js';
import { arrayAt, asObject, numberAt, objectAt, stringAt, type JsonObject } from '../../core/shared/json-value.js';
import { quantityNanos } from '../../shared/quantity-validation.js';

const metricSourceTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const sourceFields: Readonly<Record<string, string>> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  External: 'external',
  ContainerResource: 'containerResource',
};
const selectPolicies = ['Disabled', 'Max', 'Min'];
const policyTypes = ['Percent', 'Pods'];
/** MaxPeriodSeconds and MaxStabilizationWindowSeconds. */
const maxPeriodSeconds = 1800;
const maxStabilizationWindowSeconds = 3600;

/** ValidateCrossVersionObjectReference (kind and name are path segments). */
export function validateCrossVersionObjectReference(ref: JsonObject | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name']) {
    const v = stringAt(ref, f);
    if (!v) errs.push(required(childPath(path, f), ''));
    else for (const m of isValidPathSegmentName(v)) errs.push(invalid(childPath(path, f), v, m));
  }
  return errs;
}

function positive(q: unknown): boolean {
  const n = quantityNanos(q);
  return n !== undefined && n > 0n;
}

function validateMetricTarget(target: JsonObject | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = stringAt(target, 'type');
  if (!type) errs.push(required(childPath(path, 'type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') {
    errs.push(invalid(childPath(path, 'type'), type, 'must be either Utilization, Value, or AverageValue'));
  }
  for (const f of ['value', 'averageValue']) {
    const v = target?.[f];
    if (v !== undefined && v !== null && !positive(v)) errs.push(invalid(childPath(path, f), v, 'must be positive'));
  }
  const u = numberAt(target, 'averageUtilization');
  if (u !== undefined && u < 1) errs.push(invalid(childPath(path, 'averageUtilization'), u, 'must be greater than 0'));
  return errs;
}

function validateMetricIdentifier(metric: JsonObject | undefined, path: string): FieldError[] {
  const name = stringAt(metric, 'name');
  if (!name) return [required(childPath(path, 'name'), 'must specify a metric name')];
  return isValidPathSegmentName(name).map((m) => invalid(childPath(path, 'name'), name, m));
}

function has(o: JsonObject | undefined, f: string): boolean {
  return o?.[f] !== undefined && o[f] !== null;
}

function validateSource(kind: string, src: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const target = objectAt(src, 'target');
  const targetPath = childPath(path, 'target');
  if (kind === 'resource' || kind === 'containerResource') {
    if (!stringAt(src, 'name')) errs.push(required(childPath(path, 'name'), 'must specify a resource name'));
    if (kind === 'containerResource' && !stringAt(src, 'container')) errs.push(required(childPath(path, 'container'), 'must specify a container'));
    errs.push(...validateMetricTarget(target, targetPath));
    if (!has(target, 'averageUtilization') && !has(target, 'averageValue')) {
      errs.push(required(childPath(targetPath, 'averageUtilization'), 'must set either a target raw value or a target utilization'));
    }
    if (has(target, 'averageUtilization') && has(target, 'averageValue')) {
      errs.push(forbidden(childPath(targetPath, 'averageValue'), 'may not set both a target raw value and a target utilization'));
    }
    return errs;
  }
  if (kind === 'object') errs.push(...validateCrossVersionObjectReference(objectAt(src, 'describedObject'), childPath(path, 'describedObject')));
  errs.push(...validateMetricIdentifier(objectAt(src, 'metric'), childPath(path, 'metric')));
  errs.push(...validateMetricTarget(target, targetPath));
  if (kind === 'pods' && !has(target, 'averageValue')) errs.push(required(childPath(targetPath, 'averageValue'), 'must specify a positive target averageValue'));
  if (kind === 'object' && !has(target, 'value') && !has(target, 'averageValue')) {
    errs.push(required(childPath(targetPath, 'value'), 'must set either a target value or averageValue'));
  }
  if (kind === 'external') {
    if (!has(target, 'value') && !has(target, 'averageValue')) errs.push(required(childPath(targetPath, 'value'), 'must set either a target value for metric or a per-pod target'));
    if (has(target, 'value') && has(target, 'averageValue')) errs.push(forbidden(childPath(targetPath, 'value'), 'may not set both a target value for metric and a per-pod target'));
  }
  return errs;
}

function validateMetricSpec(m: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = stringAt(m, 'type');
  if (!type) errs.push(required(childPath(path, 'type'), 'must specify a metric source type'));
  const present = Object.values(sourceFields).filter((f) => has(m, f));
  const first = present[0];
  if (first) errs.push(...validateSource(first, asObject(m[first]) ?? {}, childPath(path, first)));
  const expected = sourceFields[type];
  if (!expected) errs.push(notSupported(childPath(path, 'type'), type, metricSourceTypes));
  else if (!has(m, expected)) errs.push(required(childPath(path, expected), 'must populate information for the given metric source'));
  if (present.length !== 1) {
    for (const f of present.filter((p) => p !== expected).sort()) errs.push(forbidden(childPath(path, f), 'must populate the given metric source only'));
  }
  return errs;
}

function validateScalingRules(rules: JsonObject | undefined, path: string): FieldError[] {
  if (!rules) return [];
  const errs: FieldError[] = [];
  const window = numberAt(rules, 'stabilizationWindowSeconds');
  if (window !== undefined && window < 0) errs.push(invalid(childPath(path, 'stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  if (window !== undefined && window > maxStabilizationWindowSeconds) {
    errs.push(invalid(childPath(path, 'stabilizationWindowSeconds'), window, `must be less than or equal to ${maxStabilizationWindowSeconds}`));
  }
  const select = rules.selectPolicy;
  if (select !== undefined && select !== null && (typeof select !== 'string' || !selectPolicies.includes(select))) {
    errs.push(notSupported(childPath(path, 'selectPolicy'), select, selectPolicies));
  }
  const policies = arrayAt(rules, 'policies');
  const policiesPath = childPath(path, 'policies');
  if (policies.length === 0) errs.push(required(policiesPath, 'must specify at least one Policy'));
  policies.forEach((raw, i) => {
    const p = asObject(raw) ?? {};
    const pp = indexPath(policiesPath, i);
    const type = stringAt(p, 'type');
    if (!policyTypes.includes(type)) errs.push(notSupported(childPath(pp, 'type'), type, policyTypes));
    const value = numberAt(p, 'value') ?? 0;
    if (value <= 0) errs.push(invalid(childPath(pp, 'value'), value, 'must be greater than zero'));
    const period = numberAt(p, 'periodSeconds') ?? 0;
    if (period <= 0) errs.push(invalid(childPath(pp, 'periodSeconds'), period, 'must be greater than zero'));
    if (period > maxPeriodSeconds) errs.push(invalid(childPath(pp, 'periodSeconds'), period, `must be less than or equal to ${maxPeriodSeconds}`));
  });
  return errs;
}

/** validateHorizontalPodAutoscalerSpec on the stored (v2) form. Never mutates. */
export function validateHPA(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs: FieldError[] = [];
  const min = numberAt(spec, 'minReplicas');
  const max = numberAt(spec, 'maxReplicas') ?? 0;
  if (min !== undefined && min < 1) errs.push(invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (max < 1) errs.push(invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (min !== undefined && max < min) errs.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(objectAt(spec, 'scaleTargetRef'), 'spec.scaleTargetRef'));
  arrayAt(spec, 'metrics').forEach((m, i) => errs.push(...validateMetricSpec(asObject(m) ?? {}, indexPath('spec.metrics', i))));
  const behavior = objectAt(spec, 'behavior');
  errs.push(...validateScalingRules(objectAt(behavior, 'scaleUp'), 'spec.behavior.scaleUp'));
  errs.push(...validateScalingRules(objectAt(behavior, 'scaleDown'), 'spec.behavior.scaleDown'));
  return errs;
}
