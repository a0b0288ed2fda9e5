/**
 * DeviceClass rules (kube's pkg/registry/resource/deviceclass): selectors with CEL expressions,
 * opaque configurations naming a driver, and generation tracking.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { arrayAt, asObject } from '../../core/shared/json-value.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateConfigs, validateSelectors } from '../shared/validation.js';

function validateDeviceClass(obj: KubeObject) {
  const spec = asObject(obj.spec);
  return [...validateSelectors(arrayAt(spec, 'selectors'), 'spec.selectors'), ...validateConfigs(arrayAt(spec, 'config'), 'spec.config')];
}

/** The DeviceClass strategy. */
export const deviceClassStrategy = defineStrategy({ namespaced: false, tracksGeneration: true, validate: validateDeviceClass });
