/**
 * HorizontalPodAutoscaler rules (kube 1.33's pkg/registry/autoscaling/horizontalpodautoscaler):
 * status written only through horizontalpodautoscalers/status and starting as the empty v2
 * status kube serializes; the alpha scaling tolerance dropped unless already in use; the
 * round-trip annotations of older versions never stored. No generation tracking in 1.33.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { StatusStrategy } from '../../generic/strategy.js';
import { asObject, objectAt } from '../../core/shared/json-value.js';
import { takeAllButStatusFrom } from '../../core/shared/status-write.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { dropRoundTripAnnotations } from './conversion.js';
import { validateHPA } from './validation.js';

function rulesOf(obj: KubeObject | undefined): Array<Record<string, unknown>> {
  const behavior = objectAt(asObject(obj?.spec), 'behavior');
  return [objectAt(behavior, 'scaleUp'), objectAt(behavior, 'scaleDown')].filter((r): r is Record<string, unknown> => r !== undefined);
}

/** dropDisabledFields: HPAConfigurableTolerance is off in 1.33, so tolerance survives only where old used it. */
function dropTolerance(obj: KubeObject, old: KubeObject | undefined): void {
  if (rulesOf(old).some((r) => r.tolerance !== undefined && r.tolerance !== null)) return;
  for (const r of rulesOf(obj)) delete r.tolerance;
}

/** The HorizontalPodAutoscaler strategy. */
export const hpaStrategy = defineStrategy({
  namespaced: true,
  hasStatus: true,
  initialStatus: () => ({ currentMetrics: null, desiredReplicas: 0 }),
  prepareForCreate(_ctx, obj) {
    dropTolerance(obj, undefined);
    dropRoundTripAnnotations(obj);
  },
  prepareForUpdate(_ctx, obj, old) {
    dropTolerance(obj, old);
    dropRoundTripAnnotations(obj);
  },
  validate: validateHPA,
});

/** horizontalpodautoscalers/status: only status changes. */
export const hpaStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
    dropRoundTripAnnotations(obj);
  },
  validateUpdate() {
    return [];
  },
};
