/**
 * resource.k8s.io defaulting: a request naming a device class (v1alpha3/v1beta1) or an exactly
 * request (v1beta2) gets allocationMode ExactCount and, for that mode, count 1; sub-requests
 * likewise; tolerations get operator Equal.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { arrayAt, asObject, objectAt, type JsonObject } from '../../core/shared/json-value.js';
import type { ResourceShape } from './conversion.js';

function defaultTolerations(o: JsonObject): void {
  for (const t of arrayAt(o, 'tolerations')) {
    const tol = asObject(t);
    if (tol && (tol.operator === undefined || tol.operator === null || tol.operator === '')) tol.operator = 'Equal';
  }
}

function defaultExact(o: JsonObject): void {
  if (o.allocationMode === undefined || o.allocationMode === null || o.allocationMode === '') o.allocationMode = 'ExactCount';
  if (o.allocationMode === 'ExactCount' && (o.count === undefined || o.count === null || o.count === 0)) o.count = 1;
  defaultTolerations(o);
}

function requests(obj: KubeObject, shape: ResourceShape): JsonObject[] {
  const spec = asObject(obj.spec);
  const claimSpec = shape === 'template' ? objectAt(spec, 'spec') : shape === 'claim' ? spec : undefined;
  return arrayAt(objectAt(claimSpec, 'devices'), 'requests').map((r) => asObject(r)).filter((r): r is JsonObject => r !== undefined);
}

/** v1beta1 (and v1alpha3) defaults of a resource of the given shape. Mutates obj. */
export function defaultResourceV1beta1(obj: KubeObject, shape: ResourceShape): void {
  for (const r of requests(obj, shape)) {
    if (typeof r.deviceClassName === 'string' && r.deviceClassName !== '') defaultExact(r);
    for (const s of arrayAt(r, 'firstAvailable')) {
      const sub = asObject(s);
      if (sub) defaultExact(sub);
    }
  }
}

/** v1beta2 defaults of a resource of the given shape. Mutates obj. */
export function defaultResourceV1beta2(obj: KubeObject, shape: ResourceShape): void {
  for (const r of requests(obj, shape)) {
    const exactly = objectAt(r, 'exactly');
    if (exactly) defaultExact(exactly);
    for (const s of arrayAt(r, 'firstAvailable')) {
      const sub = asObject(s);
      if (sub) defaultExact(sub);
    }
  }
}
