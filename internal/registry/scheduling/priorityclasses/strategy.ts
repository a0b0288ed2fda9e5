/**
 * PriorityClass rules (kube's pkg/registry/scheduling/priorityclass): names starting "system-"
 * are reserved for kube's own classes with their exact values, user classes stay at or below
 * one billion, preemptionPolicy is known, and value and preemptionPolicy never change.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { forbidden, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { validateImmutableField } from '../../core/shared/field-immutable.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

/** scheduling.HighestUserDefinablePriority. */
export const highestUserDefinablePriority = 1000000000;
const systemPrefix = 'system-';
/** The system priority classes kube creates, with their values. */
export const systemPriorityClasses: ReadonlyArray<{ name: string; value: number; globalDefault: boolean }> = [
  { name: 'system-node-critical', value: 2000001000, globalDefault: false },
  { name: 'system-cluster-critical', value: 2000000000, globalDefault: false },
];

function knownSystemClassError(name: string, value: unknown, globalDefault: boolean): string | undefined {
  const spc = systemPriorityClasses.find((c) => c.name === name);
  if (!spc) return `${name} is not a known system priority class`;
  if (spc.value !== value) return `value of ${name} PriorityClass must be ${spc.value}`;
  if (spc.globalDefault !== globalDefault) return `globalDefault of ${name} PriorityClass must be ${spc.globalDefault}`;
  return undefined;
}

/** ValidatePreemptionPolicy. */
function validatePreemptionPolicy(policy: unknown): FieldError[] {
  if (policy === undefined || policy === null) return [];
  if (policy === '') return [required('preemptionPolicy', '')];
  if (policy !== 'PreemptLowerPriority' && policy !== 'Never') return [notSupported('preemptionPolicy', policy, ['PreemptLowerPriority', 'Never'])];
  return [];
}

/** ValidatePriorityClass without metadata. Never mutates. */
export function validatePriorityClass(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = obj.metadata.name ?? '';
  const value = typeof obj.value === 'number' ? obj.value : 0;
  if (name.startsWith(systemPrefix)) {
    const err = knownSystemClassError(name, value, obj.globalDefault === true);
    if (err) errs.push(forbidden('metadata.name', `priority class names with '${systemPrefix}' prefix are reserved for system use only. error: ${err}`));
  } else if (value > highestUserDefinablePriority) {
    errs.push(forbidden('value', `maximum allowed value of a user defined priority is ${highestUserDefinablePriority}`));
  }
  errs.push(...validatePreemptionPolicy(obj.preemptionPolicy));
  return errs;
}

/** ValidatePriorityClassUpdate without metadata: value and preemptionPolicy are fixed. */
export function validatePriorityClassUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if ((obj.value ?? 0) !== (old.value ?? 0)) errs.push(forbidden('value', 'may not be changed in an update.'));
  errs.push(...validateImmutableField(obj.preemptionPolicy, old.preemptionPolicy, 'preemptionPolicy'));
  return errs;
}

/** The PriorityClass strategy. */
export const priorityClassStrategy = defineStrategy({
  namespaced: false,
  validate: validatePriorityClass,
  validateUpdate: validatePriorityClassUpdate,
});

/** scheduling/v1 SetDefaults_PriorityClass: preemptionPolicy PreemptLowerPriority. Mutates obj. */
export function defaultPriorityClass(obj: KubeObject): void {
  if (obj.preemptionPolicy === undefined || obj.preemptionPolicy === null) obj.preemptionPolicy = 'PreemptLowerPriority';
}
