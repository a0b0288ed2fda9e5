/**
 * autoscaling/v1 HorizontalPodAutoscaler <-> the stored autoscaling/v2 one (kube's
 * pkg/apis/autoscaling/v1 conversion through the internal type). v1 holds one metric,
 * spec.targetCPUUtilizationPercentage (status.currentCPUUtilizationPercentage); everything else
 * travels in annotations, as kube writes them: other metrics and current metrics in the
 * v2beta1-shaped v1 MetricSpec/MetricStatus form, conditions, and behavior marshalled from the
 * internal Go type (field names capitalised). A v1 HPA without metrics gets CPU at 80%.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { rewritingConversion } from '../../shared/conversion.js';
import { asObject, numberAt, objectAt, stringAt, type JsonObject } from '../../core/shared/json-value.js';
import { defaultCPUMetric, defaultHPAv2 } from './defaults.js';

/** autoscaling.MetricSpecsAnnotation and friends. */
export const metricSpecsAnnotation = 'autoscaling.alpha.kubernetes.io/metrics';
export const metricStatusesAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const conditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';
export const behaviorAnnotation = 'autoscaling.alpha.kubernetes.io/behavior';
const roundTripAnnotations = [metricSpecsAnnotation, metricStatusesAnnotation, conditionsAnnotation, behaviorAnnotation];

/** DropRoundTripHorizontalPodAutoscalerAnnotations on obj's metadata; an emptied map is removed. Mutates obj. */
export function dropRoundTripAnnotations(obj: KubeObject): void {
  const annotations = obj.metadata.annotations;
  if (!annotations) return;
  if (!roundTripAnnotations.some((a) => a in annotations)) return;
  const kept = { ...annotations };
  for (const a of roundTripAnnotations) delete kept[a];
  if (Object.keys(kept).length === 0) delete obj.metadata.annotations;
  else obj.metadata.annotations = kept;
}

/** Keeps only defined values, in the given key order (Go's omitempty on pointers). */
function compact(entries: Array<[string, unknown]>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of entries) if (v !== undefined && v !== null) out[k] = v;
  return out;
}

/** A required Quantity field of a v1 type: Go marshals the zero Quantity as "0". */
function quantityOrZero(v: unknown): unknown {
  return v === undefined || v === null ? '0' : v;
}

function isCPUUtilization(m: JsonObject): boolean {
  const r = objectAt(m, 'resource');
  return m.type === 'Resource' && !!r && r.name === 'cpu' && numberAt(objectAt(r, 'target'), 'averageUtilization') !== undefined;
}

// ---- internal (v2) -> v1 MetricSpec / MetricStatus (v2beta1 shape) ----

function metricSpecToV1(m: JsonObject): JsonObject {
  const out: JsonObject = { type: m.type };
  const object = objectAt(m, 'object');
  if (object) {
    const target = objectAt(object, 'target');
    const metric = objectAt(object, 'metric');
    out.object = compact([
      ['target', objectAt(object, 'describedObject') ?? {}],
      ['metricName', stringAt(metric, 'name')],
      ['targetValue', quantityOrZero(target?.value)],
      ['selector', metric?.selector],
      ['averageValue', target?.averageValue],
    ]);
  }
  const pods = objectAt(m, 'pods');
  if (pods) {
    const metric = objectAt(pods, 'metric');
    out.pods = compact([
      ['metricName', stringAt(metric, 'name')],
      ['targetAverageValue', quantityOrZero(objectAt(pods, 'target')?.averageValue)],
      ['selector', metric?.selector],
    ]);
  }
  const resource = objectAt(m, 'resource');
  if (resource) {
    const target = objectAt(resource, 'target');
    out.resource = compact([
      ['name', stringAt(resource, 'name')],
      ['targetAverageUtilization', target?.averageUtilization],
      ['targetAverageValue', target?.averageValue],
    ]);
  }
  const container = objectAt(m, 'containerResource');
  if (container) {
    const target = objectAt(container, 'target');
    out.containerResource = compact([
      ['name', stringAt(container, 'name')],
      ['targetAverageUtilization', target?.averageUtilization],
      ['targetAverageValue', target?.averageValue],
      ['container', stringAt(container, 'container')],
    ]);
  }
  const external = objectAt(m, 'external');
  if (external) {
    const target = objectAt(external, 'target');
    const metric = objectAt(external, 'metric');
    out.external = compact([
      ['metricName', stringAt(metric, 'name')],
      ['metricSelector', metric?.selector],
      ['targetValue', target?.value],
      ['targetAverageValue', target?.averageValue],
    ]);
  }
  return out;
}

function metricStatusToV1(m: JsonObject): JsonObject {
  const out: JsonObject = { type: m.type };
  const object = objectAt(m, 'object');
  if (object) {
    const current = objectAt(object, 'current');
    const metric = objectAt(object, 'metric');
    out.object = compact([
      ['target', objectAt(object, 'describedObject') ?? {}],
      ['metricName', stringAt(metric, 'name')],
      ['currentValue', quantityOrZero(current?.value)],
      ['selector', metric?.selector],
      ['averageValue', current?.averageValue],
    ]);
  }
  const pods = objectAt(m, 'pods');
  if (pods) {
    const metric = objectAt(pods, 'metric');
    out.pods = compact([
      ['metricName', stringAt(metric, 'name')],
      ['currentAverageValue', quantityOrZero(objectAt(pods, 'current')?.averageValue)],
      ['selector', metric?.selector],
    ]);
  }
  const resource = objectAt(m, 'resource');
  if (resource) {
    const current = objectAt(resource, 'current');
    out.resource = compact([
      ['name', stringAt(resource, 'name')],
      ['currentAverageUtilization', current?.averageUtilization],
      ['currentAverageValue', quantityOrZero(current?.averageValue)],
    ]);
  }
  const container = objectAt(m, 'containerResource');
  if (container) {
    const current = objectAt(container, 'current');
    out.containerResource = compact([
      ['name', stringAt(container, 'name')],
      ['currentAverageUtilization', current?.averageUtilization],
      ['currentAverageValue', quantityOrZero(current?.averageValue)],
      ['container', stringAt(container, 'container')],
    ]);
  }
  const external = objectAt(m, 'external');
  if (external) {
    const current = objectAt(external, 'current');
    const metric = objectAt(external, 'metric');
    out.external = compact([
      ['metricName', stringAt(metric, 'name')],
      ['metricSelector', metric?.selector],
      ['currentValue', quantityOrZero(current?.value)],
      ['currentAverageValue', current?.averageValue],
    ]);
  }
  return out;
}

// ---- v1 MetricSpec / MetricStatus -> internal (v2) ----

function metricIdentifier(name: unknown, selector: unknown): JsonObject {
  return compact([
    ['name', typeof name === 'string' ? name : ''],
    ['selector', selector],
  ]);
}

function metricSpecFromV1(m: JsonObject): JsonObject {
  const out: JsonObject = { type: m.type };
  const object = objectAt(m, 'object');
  if (object) {
    out.object = {
      describedObject: objectAt(object, 'target') ?? {},
      target: compact([
        ['type', object.averageValue === undefined || object.averageValue === null ? 'Value' : 'AverageValue'],
        ['value', quantityOrZero(object.targetValue)],
        ['averageValue', object.averageValue],
      ]),
      metric: metricIdentifier(object.metricName, object.selector),
    };
  }
  const pods = objectAt(m, 'pods');
  if (pods) {
    out.pods = {
      metric: metricIdentifier(pods.metricName, pods.selector),
      target: { type: 'AverageValue', averageValue: quantityOrZero(pods.targetAverageValue) },
    };
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const src = objectAt(m, key);
    if (!src) continue;
    const utilization = src.targetAverageUtilization;
    out[key] = compact([
      ['name', stringAt(src, 'name')],
      [
        'target',
        compact([
          ['type', utilization === undefined || utilization === null ? 'AverageValue' : 'Utilization'],
          ['averageUtilization', utilization],
          ['averageValue', src.targetAverageValue],
        ]),
      ],
      ['container', key === 'containerResource' ? stringAt(src, 'container') : undefined],
    ]);
  }
  const external = objectAt(m, 'external');
  if (external) {
    out.external = {
      metric: metricIdentifier(external.metricName, external.metricSelector),
      target: compact([
        ['type', external.targetValue === undefined || external.targetValue === null ? 'AverageValue' : 'Value'],
        ['value', external.targetValue],
        ['averageValue', external.targetAverageValue],
      ]),
    };
  }
  return out;
}

function metricStatusFromV1(m: JsonObject): JsonObject {
  const out: JsonObject = { type: m.type };
  const object = objectAt(m, 'object');
  if (object) {
    out.object = {
      metric: metricIdentifier(object.metricName, object.selector),
      current: compact([
        ['value', quantityOrZero(object.currentValue)],
        ['averageValue', object.averageValue],
      ]),
      describedObject: objectAt(object, 'target') ?? {},
    };
  }
  const pods = objectAt(m, 'pods');
  if (pods) {
    out.pods = { metric: metricIdentifier(pods.metricName, pods.selector), current: { averageValue: quantityOrZero(pods.currentAverageValue) } };
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const src = objectAt(m, key);
    if (!src) continue;
    out[key] = compact([
      ['name', stringAt(src, 'name')],
      [
        'current',
        compact([
          ['averageValue', quantityOrZero(src.currentAverageValue)],
          ['averageUtilization', src.currentAverageUtilization],
        ]),
      ],
      ['container', key === 'containerResource' ? stringAt(src, 'container') : undefined],
    ]);
  }
  const external = objectAt(m, 'external');
  if (external) {
    out.external = {
      metric: metricIdentifier(external.metricName, external.metricSelector),
      current: compact([
        ['value', quantityOrZero(external.currentValue)],
        ['averageValue', external.currentAverageValue],
      ]),
    };
  }
  return out;
}

// ---- behavior in the annotation: the internal Go type, field names as Go spells them ----

function rulesToGo(rules: unknown): unknown {
  const r = asObject(rules);
  if (!r) return null;
  const policies = Array.isArray(r.policies)
    ? r.policies.map((p) => {
        const o = asObject(p) ?? {};
        return { Type: o.type ?? '', Value: o.value ?? 0, PeriodSeconds: o.periodSeconds ?? 0 };
      })
    : null;
  return { StabilizationWindowSeconds: r.stabilizationWindowSeconds ?? null, SelectPolicy: r.selectPolicy ?? null, Policies: policies, Tolerance: r.tolerance ?? null };
}

/** Go's encoding/json matches object keys case-insensitively. */
function field(o: JsonObject | undefined, name: string): unknown {
  if (!o) return undefined;
  if (name in o) return o[name];
  const lower = name.toLowerCase();
  const key = Object.keys(o).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : o[key];
}

function rulesFromGo(rules: unknown): JsonObject | undefined {
  const r = asObject(rules);
  if (!r) return undefined;
  const policies = field(r, 'Policies');
  return compact([
    ['stabilizationWindowSeconds', field(r, 'StabilizationWindowSeconds')],
    ['selectPolicy', field(r, 'SelectPolicy')],
    [
      'policies',
      Array.isArray(policies)
        ? policies.map((p) => {
            const o = asObject(p);
            return { type: field(o, 'Type') ?? '', value: field(o, 'Value') ?? 0, periodSeconds: field(o, 'PeriodSeconds') ?? 0 };
          })
        : undefined,
    ],
    ['tolerance', field(r, 'Tolerance')],
  ]);
}

function parseJSON(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function objects(v: unknown): JsonObject[] {
  return Array.isArray(v) ? v.map((e) => asObject(e) ?? {}) : [];
}

function setAnnotation(obj: KubeObject, key: string, value: unknown): void {
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [key]: JSON.stringify(value) };
}

/** The stored v2 HPA as autoscaling/v1 serves it. Mutates the copy it is given. */
function toV1(obj: KubeObject): void {
  dropRoundTripAnnotations(obj);
  const spec = asObject(obj.spec) ?? {};
  const status = asObject(obj.status);
  const metrics = objects(spec.metrics);
  const otherMetrics = metrics.filter((m) => !isCPUUtilization(m)).map(metricSpecToV1);
  const cpu = metrics.find((m) => m.type === 'Resource' && objectAt(m, 'resource')?.name === 'cpu');
  const cpuTarget = cpu ? numberAt(objectAt(objectAt(cpu, 'resource'), 'target'), 'averageUtilization') : undefined;
  obj.spec = compact([
    ['scaleTargetRef', spec.scaleTargetRef ?? {}],
    ['minReplicas', spec.minReplicas],
    ['maxReplicas', spec.maxReplicas ?? 0],
    ['targetCPUUtilizationPercentage', cpuTarget],
  ]);
  // v1's status is a struct whose replica counts are always written.
  const currentMetrics = objects(status?.currentMetrics);
  let cpuCurrent: number | undefined;
  for (const m of currentMetrics) {
    const r = objectAt(m, 'resource');
    const u = numberAt(objectAt(r, 'current'), 'averageUtilization');
    if (m.type === 'Resource' && r?.name === 'cpu' && u !== undefined) cpuCurrent = u;
  }
  obj.status = compact([
    ['observedGeneration', status?.observedGeneration],
    ['lastScaleTime', status?.lastScaleTime],
    ['currentReplicas', status?.currentReplicas ?? 0],
    ['desiredReplicas', status?.desiredReplicas ?? 0],
    ['currentCPUUtilizationPercentage', cpuCurrent],
  ]);
  if (currentMetrics.length > 0) setAnnotation(obj, metricStatusesAnnotation, currentMetrics.map(metricStatusToV1));
  const conditions = objects(status?.conditions).map((c) => ({
    type: c.type ?? '',
    status: c.status ?? '',
    // A struct in Go: a zero time is written as null rather than left out.
    lastTransitionTime: c.lastTransitionTime ?? null,
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
  }));
  if (conditions.length > 0) setAnnotation(obj, conditionsAnnotation, conditions);
  if (otherMetrics.length > 0) setAnnotation(obj, metricSpecsAnnotation, otherMetrics);
  const behavior = asObject(spec.behavior);
  if (behavior) setAnnotation(obj, behaviorAnnotation, { ScaleUp: rulesToGo(behavior.scaleUp), ScaleDown: rulesToGo(behavior.scaleDown) });
}

/** An autoscaling/v1 HPA as it is stored (v2). Mutates the copy it is given. */
function fromV1(obj: KubeObject): void {
  const annotations = obj.metadata.annotations ?? {};
  const spec = asObject(obj.spec) ?? {};
  const status = asObject(obj.status);
  const metrics: JsonObject[] = [];
  const target = numberAt(spec, 'targetCPUUtilizationPercentage');
  const other = parseJSON(annotations[metricSpecsAnnotation]);
  if (Array.isArray(other)) metrics.push(...objects(other).map(metricSpecFromV1));
  if (target !== undefined) metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } } });
  if (metrics.length === 0) metrics.push(defaultCPUMetric());
  let behavior: JsonObject | undefined;
  const rawBehavior = asObject(parseJSON(annotations[behaviorAnnotation]));
  if (rawBehavior) {
    const scaleUp = rulesFromGo(field(rawBehavior, 'ScaleUp'));
    const scaleDown = rulesFromGo(field(rawBehavior, 'ScaleDown'));
    if (scaleUp || scaleDown) behavior = compact([
      ['scaleUp', scaleUp],
      ['scaleDown', scaleDown],
    ]);
  }
  obj.spec = compact([
    ['scaleTargetRef', spec.scaleTargetRef ?? {}],
    ['minReplicas', spec.minReplicas],
    ['maxReplicas', spec.maxReplicas ?? 0],
    ['metrics', metrics],
    ['behavior', behavior],
  ]);
  if (status) {
    let currentMetrics: JsonObject[] | undefined;
    const cpuCurrent = numberAt(status, 'currentCPUUtilizationPercentage');
    if (cpuCurrent !== undefined) currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: cpuCurrent } } }];
    const rawCurrent = parseJSON(annotations[metricStatusesAnnotation]);
    if (Array.isArray(rawCurrent)) currentMetrics = objects(rawCurrent).map(metricStatusFromV1);
    const rawConditions = parseJSON(annotations[conditionsAnnotation]);
    const conditions = Array.isArray(rawConditions) ? objects(rawConditions) : undefined;
    const currentReplicas = numberAt(status, 'currentReplicas');
    // v2 writes currentMetrics even when nil, and currentReplicas only when non-zero.
    obj.status = compact([
      ['observedGeneration', status.observedGeneration],
      ['lastScaleTime', status.lastScaleTime],
      ['currentReplicas', currentReplicas ? currentReplicas : undefined],
      ['desiredReplicas', status.desiredReplicas ?? 0],
      ['conditions', conditions],
    ]);
    (obj.status as JsonObject).currentMetrics = currentMetrics ?? null;
  }
  dropRoundTripAnnotations(obj);
}

/** The autoscaling/v1 conversion; toInternal also applies the v2 defaults kube applies when reading the stored object. */
export const hpaV1Conversion = rewritingConversion(toV1, fromV1, defaultHPAv2);
