/**
 * An autoscaling/v1 HPA's metrics in the v2 shape kube's printer reads. kube prints the internal
 * object decoded from storage (v2); the v1 form keeps the CPU utilization target in
 * spec.targetCPUUtilizationPercentage and every other metric, and all current metrics, in
 * annotations in the older v2beta1 shape. This undoes that: the annotated metrics, with the CPU
 * target put back where the current metrics (written in spec order) place it.
 */
import { type Json, asObject, metadataOf, objectAt, optionalInt, stringAt, stringMapAt } from './json-fields.js';

const metricSpecsAnnotation = 'autoscaling.alpha.kubernetes.io/metrics';
const metricStatusesAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';

function annotatedList(obj: Json, annotation: string): Json[] | undefined {
  const text = stringMapAt(metadataOf(obj), 'annotations')[annotation];
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map((e) => asObject(e) ?? {}) : undefined;
  } catch {
    return undefined;
  }
}

/** A v2beta1-shaped metric spec as v2: only the fields the printer reads. */
function specFromV1(m: Json): Json {
  const type = stringAt(m, 'type');
  const out: Json = { type };
  const object = objectAt(m, 'object');
  if (object) out.object = { target: { value: object.targetValue, averageValue: object.averageValue } };
  const pods = objectAt(m, 'pods');
  if (pods) out.pods = { target: { averageValue: pods.targetAverageValue } };
  const external = objectAt(m, 'external');
  if (external) out.external = { target: { value: external.targetValue, averageValue: external.targetAverageValue } };
  for (const key of ['resource', 'containerResource']) {
    const src = objectAt(m, key);
    if (src) out[key] = { name: src.name, target: { averageUtilization: src.targetAverageUtilization, averageValue: src.targetAverageValue } };
  }
  return out;
}

/** A v2beta1-shaped metric status as v2: only the fields the printer reads. */
function statusFromV1(m: Json): Json {
  const out: Json = { type: stringAt(m, 'type') };
  const object = objectAt(m, 'object');
  if (object) out.object = { current: { value: object.currentValue, averageValue: object.averageValue } };
  const pods = objectAt(m, 'pods');
  if (pods) out.pods = { current: { averageValue: pods.currentAverageValue } };
  const external = objectAt(m, 'external');
  if (external) out.external = { current: { value: external.currentValue, averageValue: external.currentAverageValue } };
  for (const key of ['resource', 'containerResource']) {
    const src = objectAt(m, key);
    if (src) out[key] = { name: src.name, current: { averageUtilization: src.currentAverageUtilization, averageValue: src.currentAverageValue } };
  }
  return out;
}

function isCPUResource(m: Json | undefined): boolean {
  return stringAt(m, 'type') === 'Resource' && stringAt(objectAt(m, 'resource'), 'name') === 'cpu';
}

/**
 * Puts the CPU target back among the other metrics: with one current metric per spec metric,
 * at the first CPU status that the next other metric does not claim; else last (where kube's
 * own v1 conversion puts it).
 */
function placeCPU(others: Json[], cpu: Json, statuses: Json[]): Json[] {
  if (statuses.length !== others.length + 1) return [...others, cpu];
  const out: Json[] = [];
  let next = 0;
  let placed = false;
  for (const status of statuses) {
    if (!placed && isCPUResource(status) && !isCPUResource(others[next])) {
      out.push(cpu);
      placed = true;
    } else if (next < others.length) out.push(others[next++] as Json);
    else {
      out.push(cpu);
      placed = true;
    }
  }
  return out;
}

/** The v2-shaped spec metrics and current metrics of an autoscaling/v1 HPA. Pure. */
export function v2MetricsOfV1(hpa: Json): { specs: Json[]; statuses: Json[] } {
  const spec = objectAt(hpa, 'spec');
  const status = objectAt(hpa, 'status');
  const others = (annotatedList(hpa, metricSpecsAnnotation) ?? []).map(specFromV1);
  let statuses = (annotatedList(hpa, metricStatusesAnnotation) ?? []).map(statusFromV1);
  const currentCPU = optionalInt(status, 'currentCPUUtilizationPercentage');
  if (statuses.length === 0 && currentCPU !== undefined) {
    statuses = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: currentCPU } } }];
  }
  const targetCPU = optionalInt(spec, 'targetCPUUtilizationPercentage');
  if (targetCPU === undefined) return { specs: others, statuses };
  const cpu: Json = { type: 'Resource', resource: { name: 'cpu', target: { averageUtilization: targetCPU } } };
  return { specs: placeCPU(others, cpu, statuses), statuses };
}
