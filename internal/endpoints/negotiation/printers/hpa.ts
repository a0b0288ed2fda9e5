/**
 * autoscaling horizontalpodautoscalers: REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE, the same
 * for v1 and v2. TARGETS renders each metric as "current/target" (kube's formatHPAMetrics): the
 * first two, then "+ N more...". It reads v2-shaped metrics; v1 objects are first rebuilt into
 * that shape by hpa-v1.ts.
 */
import { creationAge } from './ages.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { type Json, intAt, nameOf, objectAt, objectsAt, optionalInt, stringAt } from './json-fields.js';
import { v2MetricsOfV1 } from './hpa-v1.js';
import type { TablePrinter } from './types.js';

const shown = 2;

/** Quantity.String() of an optional quantity: Go prints a nil *Quantity as "<nil>". */
function quantity(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return '<nil>';
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** One metric's "current/target" text; status is the status at the same index, if any. */
function metricText(spec: Json, status: Json | undefined): string {
  switch (stringAt(spec, 'type')) {
    case 'External':
    case 'Object': {
      const key = stringAt(spec, 'type') === 'External' ? 'external' : 'object';
      const target = objectAt(objectAt(spec, key), 'target');
      const current = objectAt(objectAt(status, key), 'current');
      const hasStatus = objectAt(status, key) !== undefined;
      if (present(target?.averageValue)) {
        const cur = hasStatus && present(current?.averageValue) ? quantity(current?.averageValue) : '<unknown>';
        return `${cur}/${quantity(target?.averageValue)} (avg)`;
      }
      const cur = hasStatus ? quantity(current?.value) : '<unknown>';
      return `${cur}/${quantity(target?.value)}`;
    }
    case 'Pods': {
      const target = objectAt(objectAt(spec, 'pods'), 'target');
      const podsStatus = objectAt(status, 'pods');
      const cur = podsStatus ? quantity(objectAt(podsStatus, 'current')?.averageValue) : '<unknown>';
      return `${cur}/${quantity(target?.averageValue)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = stringAt(spec, 'type') === 'Resource' ? 'resource' : 'containerResource';
      const source = objectAt(spec, key);
      const target = objectAt(source, 'target');
      const sourceStatus = objectAt(status, key);
      const current = objectAt(sourceStatus, 'current');
      const name = stringAt(source, 'name');
      if (present(target?.averageValue)) {
        const cur = sourceStatus ? quantity(current?.averageValue) : '<unknown>';
        return `${name}: ${cur}/${quantity(target?.averageValue)}`;
      }
      const utilization = optionalInt(current, 'averageUtilization');
      const cur = sourceStatus && utilization !== undefined ? `${utilization}%` : '<unknown>';
      const targetUtilization = optionalInt(target, 'averageUtilization');
      return `${name}: ${cur}/${targetUtilization === undefined ? '<auto>' : `${targetUtilization}%`}`;
    }
    default:
      return '<unknown type>';
  }
}

/** kube's formatHPAMetrics over v2-shaped spec metrics and current metrics. Pure. */
export function formatHPAMetrics(specs: Json[], statuses: Json[]): string {
  if (specs.length === 0) return '<none>';
  const list = specs.map((spec, i) => metricText(spec, statuses[i]));
  const joined = list.slice(0, shown).join(', ');
  return list.length > shown ? `${joined} + ${list.length - shown} more...` : joined;
}

/** The HPA printer; v1 says the endpoint serves autoscaling/v1 objects. */
export function hpaPrinter(v1: boolean): TablePrinter {
  return {
    columns: [
      nameColumn,
      column('Reference', 'string', 'The workload the autoscaler scales, as Kind/name.'),
      column('Targets', 'string', 'Current and target values of the metrics the autoscaler follows.'),
      column('MinPods', 'string', 'The fewest replicas the autoscaler scales down to.'),
      column('MaxPods', 'string', 'The most replicas the autoscaler scales up to.'),
      column('Replicas', 'string', 'The replicas the workload has now, as the autoscaler last saw it.'),
      ageColumn,
    ],
    cells(hpa, now) {
      const spec = objectAt(hpa, 'spec');
      const status = objectAt(hpa, 'status');
      const ref = objectAt(spec, 'scaleTargetRef');
      // A v2-shaped object (spec.metrics) prints as it is, whichever endpoint hands it over.
      const metrics = v1 && !Array.isArray(spec?.metrics) ? v2MetricsOfV1(hpa) : { specs: objectsAt(spec, 'metrics'), statuses: objectsAt(status, 'currentMetrics') };
      const minReplicas = optionalInt(spec, 'minReplicas');
      return [
        nameOf(hpa),
        `${stringAt(ref, 'kind')}/${stringAt(ref, 'name')}`,
        formatHPAMetrics(metrics.specs, metrics.statuses),
        minReplicas === undefined ? '<unset>' : String(minReplicas),
        intAt(spec, 'maxReplicas'),
        intAt(status, 'currentReplicas'),
        creationAge(hpa, now),
      ];
    },
  };
}
