/**
 * HorizontalPodAutoscaler defaulting. autoscaling/v2 (SetDefaults_HorizontalPodAutoscaler):
 * minReplicas 1, a CPU utilization metric of 80% when none is given, and, when behavior is
 * given, its missing scale-up and scale-down rules filled from kube's defaults. autoscaling/v1:
 * minReplicas 1 (the CPU default is applied by the conversion).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childObject, isNil } from '../../core/shared/defaults-values.js';

/** autoscaling.DefaultCPUUtilization. */
export const defaultCPUUtilization = 80;

function scaleUpDefaults(): Record<string, unknown> {
  return {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  };
}

function scaleDownDefaults(): Record<string, unknown> {
  return { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
}

/** copyHPAScalingRules over the defaults: every field the rules set wins. */
function fillRules(rules: unknown, defaults: Record<string, unknown>): Record<string, unknown> {
  const from = childObject({ r: rules }, 'r');
  if (!from) return defaults;
  const out = { ...defaults };
  for (const key of ['selectPolicy', 'stabilizationWindowSeconds', 'policies', 'tolerance']) {
    if (!isNil(from[key])) out[key] = from[key];
  }
  // Keep kube's field order in the output: stabilizationWindowSeconds, selectPolicy, policies, tolerance.
  const ordered: Record<string, unknown> = {};
  for (const key of ['stabilizationWindowSeconds', 'selectPolicy', 'policies', 'tolerance']) if (out[key] !== undefined) ordered[key] = out[key];
  return ordered;
}

/** The autoscaling/v2 CPU metric kube adds when an HPA names no metrics. */
export function defaultCPUMetric(): Record<string, unknown> {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: defaultCPUUtilization } } };
}

/** Defaults an autoscaling/v2 HPA in place. Mutates obj; idempotent. */
export function defaultHPAv2(obj: KubeObject): void {
  if (isNil(obj.spec)) obj.spec = {};
  const spec = childObject(obj, 'spec');
  if (!spec) return;
  if (isNil(spec.minReplicas)) spec.minReplicas = 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) spec.metrics = [defaultCPUMetric()];
  const behavior = childObject(spec, 'behavior');
  if (behavior) {
    behavior.scaleUp = fillRules(behavior.scaleUp, scaleUpDefaults());
    behavior.scaleDown = fillRules(behavior.scaleDown, scaleDownDefaults());
  }
}

/** Defaults an autoscaling/v1 HPA in place: minReplicas 1. Mutates obj; idempotent. */
export function defaultHPAv1(obj: KubeObject): void {
  if (isNil(obj.spec)) obj.spec = {};
  const spec = childObject(obj, 'spec');
  if (spec && isNil(spec.minReplicas)) spec.minReplicas = 1;
}
