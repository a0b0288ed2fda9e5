/**
 * LimitRange rules (kube's pkg/registry/core/limitrange): PUT may create, and items are checked
 * by ValidateLimitRange; core/v1 defaulting fills container defaults from max and min.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childObject, objectsIn } from '../shared/defaults-values.js';
import { defaultResourceList } from '../shared/resource-list-defaults.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateLimitRange } from './validation.js';

/** The LimitRange strategy (kube's pkg/registry/core/limitrange). */
export const limitRangeStrategy = defineStrategy({
  namespaced: true,
  allowCreateOnUpdate: true,
  validate: validateLimitRange,
});

/**
 * core/v1 SetDefaults_LimitRangeItem for Container limits: default limits from max, default
 * requests from the default limits and then from min; plus canonical quantities. Mutates obj.
 */
export function defaultLimitRange(obj: KubeObject): void {
  for (const item of objectsIn(childObject(obj, 'spec'), 'limits')) {
    for (const key of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']) defaultResourceList(item[key]);
    if (item.type !== 'Container') continue;
    const defaults = { ...(childObject(item, 'default') ?? {}) };
    const requests = { ...(childObject(item, 'defaultRequest') ?? {}) };
    for (const [k, v] of Object.entries(childObject(item, 'max') ?? {})) if (!(k in defaults)) defaults[k] = v;
    for (const [k, v] of Object.entries(defaults)) if (!(k in requests)) requests[k] = v;
    for (const [k, v] of Object.entries(childObject(item, 'min') ?? {})) if (!(k in requests)) requests[k] = v;
    // An empty map is omitted when kube serializes the item.
    if (Object.keys(defaults).length > 0) item.default = defaults;
    if (Object.keys(requests).length > 0) item.defaultRequest = requests;
  }
}
