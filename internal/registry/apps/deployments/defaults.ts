/**
 * kube's defaulting of apps/v1 Deployments (SetObjectDefaults_Deployment): one replica, a
 * RollingUpdate strategy with 25% surge and unavailability, ten old ReplicaSets kept, a 600s
 * progress deadline, and the pod template's spec defaults.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { isEmptyString, isNil, structAt } from '../../core/shared/defaults-values.js';
import { defaultPodTemplateSpec } from '../../core/shared/pod-defaults.js';

/** Defaults a decoded Deployment in place. Mutates obj; idempotent. */
export function defaultDeployment(obj: KubeObject): void {
  const spec = structAt(obj as Record<string, unknown>, 'spec');
  if (!spec) return;
  if (isNil(spec.replicas)) spec.replicas = 1;
  const strategy = structAt(spec, 'strategy');
  if (strategy) {
    if (isEmptyString(strategy.type)) strategy.type = 'RollingUpdate';
    if (strategy.type === 'RollingUpdate') {
      const rollingUpdate = structAt(strategy, 'rollingUpdate');
      if (rollingUpdate) {
        if (isNil(rollingUpdate.maxUnavailable)) rollingUpdate.maxUnavailable = '25%';
        if (isNil(rollingUpdate.maxSurge)) rollingUpdate.maxSurge = '25%';
      }
    }
  }
  if (isNil(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
  if (isNil(spec.progressDeadlineSeconds)) spec.progressDeadlineSeconds = 600;
  const template = structAt(spec, 'template');
  if (template) defaultPodTemplateSpec(template);
}
