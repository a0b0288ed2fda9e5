/**
 * Defaulting shared by the workload kinds: replicas 1 and revisionHistoryLimit 10 where a
 * version defaults them, and the pod defaults of spec.template (a struct in apps/v1, so it is
 * created when absent).
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { childObject, isNil } from '../core/shared/defaults-values.js';
import { defaultPodTemplateSpec } from '../core/shared/pod-defaults.js';

/** obj.spec, created when absent; undefined when mistyped. Mutates obj. */
export function specOf(obj: KubeObject): Record<string, unknown> | undefined {
  if (isNil(obj.spec)) obj.spec = {};
  return childObject(obj, 'spec');
}

/** Sets spec[key] to value when it is absent or null. */
export function defaultField(spec: Record<string, unknown>, key: string, value: unknown): void {
  if (isNil(spec[key])) spec[key] = value;
}

/** Pod defaults for spec.template; creates it when absent unless the template is optional (replication controllers). */
export function defaultSpecTemplate(spec: Record<string, unknown>, optional = false): void {
  if (isNil(spec.template)) {
    if (optional) return;
    spec.template = {};
  }
  const template = childObject(spec, 'template');
  if (template) defaultPodTemplateSpec(template);
}
