/**
 * events.k8s.io/v1 Event <-> the stored core/v1 Event, field for field (kube's
 * Convert_v1_Event_To_core_Event and back): note is message, regarding is involvedObject,
 * reportingController is reportingComponent, and the deprecated* fields are the old core ones.
 * Both directions build new objects; apiVersion and kind are the caller's to set.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { VersionConversion } from '../../registration.js';

/** [core/v1 field, events.k8s.io/v1 field] for every field that is carried over. */
const fieldMap: ReadonlyArray<readonly [string, string]> = [
  ['eventTime', 'eventTime'],
  ['series', 'series'],
  ['reportingComponent', 'reportingController'],
  ['reportingInstance', 'reportingInstance'],
  ['action', 'action'],
  ['reason', 'reason'],
  ['involvedObject', 'regarding'],
  ['related', 'related'],
  ['message', 'note'],
  ['type', 'type'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
];

/** Both groups' EventSeries share these fields (core's old `state` is dropped). */
function convertSeries(series: unknown): unknown {
  if (typeof series !== 'object' || series === null || Array.isArray(series)) return series;
  const s = series as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (s.count !== undefined) out.count = s.count;
  if (s.lastObservedTime !== undefined) out.lastObservedTime = s.lastObservedTime;
  return out;
}

function convert(from: KubeObject, direction: 0 | 1): KubeObject {
  const out: KubeObject = { metadata: structuredClone(from.metadata) };
  for (const pair of fieldMap) {
    const src = pair[direction];
    const dst = pair[1 - direction] as string;
    const value = from[src];
    if (value === undefined) continue;
    out[dst] = src === 'series' ? convertSeries(value) : structuredClone(value);
  }
  return out;
}

/** The events.k8s.io/v1 conversion. */
export const eventsV1Conversion: VersionConversion = {
  toExternal: (stored) => convert(stored, 0),
  toInternal: (external) => convert(external, 1),
};
