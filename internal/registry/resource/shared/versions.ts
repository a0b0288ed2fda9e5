/**
 * The served versions of a resource.k8s.io resource that exists in v1beta2, v1beta1 (stored)
 * and v1alpha3, with their conversions and defaulting.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { ServedVersion } from '../../shared/resource-module.js';
import { v1alpha3Conversion, v1beta2Conversion, type ResourceShape } from './conversion.js';
import { defaultResourceV1beta1, defaultResourceV1beta2 } from './defaults.js';

/** v1beta2, v1beta1 and v1alpha3 for a resource of the given shape. */
export function resourceVersions(shape: ResourceShape): ServedVersion[] {
  const v1beta1 = (o: KubeObject): void => defaultResourceV1beta1(o, shape);
  return [
    { version: 'v1beta2', conversion: v1beta2Conversion(shape), defaulter: (o) => defaultResourceV1beta2(o, shape) },
    { version: 'v1beta1', defaulter: v1beta1 },
    { version: 'v1alpha3', conversion: v1alpha3Conversion(shape), defaulter: v1beta1 },
  ];
}
