/**
 * resource.k8s.io versions over the stored v1beta1 form (kube 1.33's storage version), following
 * kube's conversions through the internal type:
 * - v1beta2 nests a request's exact-count fields under `exactly` and flattens a device (no
 *   `basic` wrapper);
 * - v1alpha3 writes a basic device's capacity as plain quantities rather than {value: quantity}.
 * Both directions return new objects; the stored version's defaults are applied after
 * converting in, as kube applies them when it reads the stored object.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { asObject, objectAt, type JsonObject } from '../../core/shared/json-value.js';
import { rewritingConversion } from '../../shared/conversion.js';
import type { VersionConversion } from '../../registration.js';
import { defaultResourceV1beta1 } from './defaults.js';

/** The fields of a v1beta1 DeviceRequest that v1beta2 keeps in ExactDeviceRequest, in its order. */
const exactFields = ['deviceClassName', 'selectors', 'allocationMode', 'count', 'adminAccess', 'tolerations'];

/** Where a resource keeps its device requests and devices. */
export type ResourceShape = 'claim' | 'template' | 'slice' | 'class';

function requestsOf(obj: KubeObject, shape: ResourceShape): JsonObject[] {
  const spec = asObject(obj.spec);
  const claimSpec = shape === 'template' ? objectAt(spec, 'spec') : shape === 'claim' ? spec : undefined;
  const requests = objectAt(claimSpec, 'devices')?.requests;
  return Array.isArray(requests) ? requests.map((r) => asObject(r)).filter((r): r is JsonObject => r !== undefined) : [];
}

function devicesOf(obj: KubeObject, shape: ResourceShape): JsonObject[] {
  if (shape !== 'slice') return [];
  const devices = asObject(obj.spec)?.devices;
  return Array.isArray(devices) ? devices.map((d) => asObject(d)).filter((d): d is JsonObject => d !== undefined) : [];
}

/** Rebuilds o with the given keys first, then the rest, keeping values (JSON key order). */
function reorder(o: JsonObject, first: readonly string[]): void {
  const entries = Object.entries(o);
  for (const k of Object.keys(o)) delete o[k];
  for (const k of first) {
    const e = entries.find(([key]) => key === k);
    if (e) o[k] = e[1];
  }
  for (const [k, v] of entries) if (!(k in o)) o[k] = v;
}

// ---- v1beta2 ----

function hasFirstAvailable(r: JsonObject): boolean {
  return Array.isArray(r.firstAvailable) && r.firstAvailable.length > 0;
}

function toV1beta2(obj: KubeObject, shape: ResourceShape): void {
  for (const r of requestsOf(obj, shape)) {
    // kube: a request with firstAvailable has no exact part; any other gets one (deviceClassName always written).
    const exactly: JsonObject = { deviceClassName: r.deviceClassName ?? '' };
    for (const f of exactFields) {
      if (r[f] !== undefined && f !== 'deviceClassName') exactly[f] = r[f];
      delete r[f];
    }
    if (!hasFirstAvailable(r)) r.exactly = exactly;
    reorder(r, ['name', 'exactly', 'firstAvailable']);
  }
  for (const d of devicesOf(obj, shape)) {
    const basic = objectAt(d, 'basic');
    delete d.basic;
    if (basic) Object.assign(d, basic);
  }
}

function fromV1beta2(obj: KubeObject, shape: ResourceShape): void {
  for (const r of requestsOf(obj, shape)) {
    const exactly = objectAt(r, 'exactly');
    delete r.exactly;
    if (exactly && !hasFirstAvailable(r)) for (const f of exactFields) if (exactly[f] !== undefined && exactly[f] !== '') r[f] = exactly[f];
    reorder(r, ['name', ...exactFields, 'firstAvailable']);
  }
  for (const d of devicesOf(obj, shape)) {
    const basic: JsonObject = {};
    for (const [k, v] of Object.entries(d)) {
      if (k === 'name') continue;
      basic[k] = v;
      delete d[k];
    }
    d.basic = basic;
  }
}

// ---- v1alpha3 ----

function mapCapacity(obj: KubeObject, shape: ResourceShape, fn: (v: unknown) => unknown): void {
  for (const d of devicesOf(obj, shape)) {
    const capacity = objectAt(objectAt(d, 'basic'), 'capacity');
    if (!capacity) continue;
    for (const [k, v] of Object.entries(capacity)) capacity[k] = fn(v);
  }
}

/** The v1beta2 conversion of a resource of the given shape. */
export function v1beta2Conversion(shape: ResourceShape): VersionConversion {
  return rewritingConversion(
    (o) => toV1beta2(o, shape),
    (o) => fromV1beta2(o, shape),
    (o) => defaultResourceV1beta1(o, shape),
  );
}

/** The v1alpha3 conversion of a resource of the given shape. */
export function v1alpha3Conversion(shape: ResourceShape): VersionConversion {
  return rewritingConversion(
    (o) => mapCapacity(o, shape, (v) => asObject(v)?.value ?? v),
    (o) => mapCapacity(o, shape, (v) => ({ value: v })),
    (o) => defaultResourceV1beta1(o, shape),
  );
}
