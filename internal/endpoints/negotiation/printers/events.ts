/**
 * Events, core/v1 and events.k8s.io/v1 (one storage in kube, one printer): LAST SEEN TYPE REASON
 * OBJECT MESSAGE, and wide SUBOBJECT SOURCE FIRST SEEN COUNT NAME. An events.k8s.io Event is read
 * through kube's conversion to the core shape: regarding is the involved object, note the
 * message, deprecatedSource/FirstTimestamp/LastTimestamp/Count the core fields.
 */
import { parseTimestamp, translateTimestampSince } from './ages.js';
import { column, nameColumn } from './columns.js';
import { type Json, intAt, nameOf, objectAt, stringAt } from './json-fields.js';
import type { TableColumn, TablePrinter } from './types.js';

/** The fields the printer reads, in core/v1 terms. */
interface EventView {
  readonly firstTimestamp: unknown;
  readonly lastTimestamp: unknown;
  readonly eventTime: unknown;
  readonly count: number;
  readonly series: Json | undefined;
  readonly involvedObject: Json | undefined;
  readonly source: Json | undefined;
  readonly reportingController: string;
  readonly reportingInstance: string;
  readonly type: string;
  readonly reason: string;
  readonly message: string;
}

function coreView(e: Json): EventView {
  return {
    firstTimestamp: e.firstTimestamp,
    lastTimestamp: e.lastTimestamp,
    eventTime: e.eventTime,
    count: intAt(e, 'count'),
    series: objectAt(e, 'series'),
    involvedObject: objectAt(e, 'involvedObject'),
    source: objectAt(e, 'source'),
    // core/v1 spells ReportingController "reportingComponent" on the wire.
    reportingController: stringAt(e, 'reportingComponent'),
    reportingInstance: stringAt(e, 'reportingInstance'),
    type: stringAt(e, 'type'),
    reason: stringAt(e, 'reason'),
    message: stringAt(e, 'message'),
  };
}

function eventsV1View(e: Json): EventView {
  return {
    firstTimestamp: e.deprecatedFirstTimestamp,
    lastTimestamp: e.deprecatedLastTimestamp,
    eventTime: e.eventTime,
    count: intAt(e, 'deprecatedCount'),
    series: objectAt(e, 'series'),
    involvedObject: objectAt(e, 'regarding'),
    source: objectAt(e, 'deprecatedSource'),
    reportingController: stringAt(e, 'reportingController'),
    reportingInstance: stringAt(e, 'reportingInstance'),
    type: stringAt(e, 'type'),
    reason: stringAt(e, 'reason'),
    message: stringAt(e, 'note'),
  };
}

/** Go's IsZero of a metav1.Time: missing, null or not a time. */
function isZero(v: unknown): boolean {
  return parseTimestamp(v) === undefined;
}

/** "component, host", the host left out when empty; the reporting fields stand in for empty ones. */
function eventSource(view: EventView): string {
  const component = stringAt(view.source, 'component') || view.reportingController;
  const host = stringAt(view.source, 'host') || view.reportingInstance;
  return host === '' ? component : `${component}, ${host}`;
}

/** "kind/name" of the involved object, lower-cased kind; the bare kind when it has no name. */
function eventTarget(involved: Json | undefined): string {
  const kind = stringAt(involved, 'kind').toLowerCase();
  const name = stringAt(involved, 'name');
  return name === '' ? kind : `${kind}/${name}`;
}

const columns: readonly TableColumn[] = [
  column('Last Seen', 'string', 'How long ago the event was last observed.'),
  column('Type', 'string', 'Normal or Warning.'),
  column('Reason', 'string', 'A short machine-readable reason for the event.'),
  column('Object', 'string', 'The object the event is about, as kind/name.'),
  column('Subobject', 'string', 'The part of the object the event is about, such as a container.', 1),
  column('Source', 'string', 'The component (and host) that reported the event.', 1),
  column('Message', 'string', 'What happened, in words.'),
  column('First Seen', 'string', 'How long ago the event was first observed.', 1),
  column('Count', 'string', 'How many times the event has been observed.', 1),
  { ...nameColumn, priority: 1 },
];

/** The events printer; eventsAPI says the endpoint serves events.k8s.io Events. */
export function eventPrinter(eventsAPI: boolean): TablePrinter {
  return {
    columns,
    cells(event, now) {
      // The object's own apiVersion wins, so a core Event handed to this printer still prints.
      const apiVersion = stringAt(event, 'apiVersion');
      const v1 = apiVersion === '' ? eventsAPI : apiVersion.startsWith('events.k8s.io/');
      const view = v1 ? eventsV1View(event) : coreView(event);
      const firstSeen = isZero(view.firstTimestamp)
        ? translateTimestampSince(view.eventTime, now)
        : translateTimestampSince(view.firstTimestamp, now);
      let lastSeen = isZero(view.lastTimestamp) ? firstSeen : translateTimestampSince(view.lastTimestamp, now);
      let count = view.count;
      if (view.series) {
        lastSeen = translateTimestampSince(view.series.lastObservedTime, now);
        count = intAt(view.series, 'count');
      } else if (count === 0) {
        // A singleton event of the events.k8s.io API carries no count.
        count = 1;
      }
      return [
        lastSeen,
        view.type,
        view.reason,
        eventTarget(view.involvedObject),
        stringAt(view.involvedObject, 'fieldPath'),
        eventSource(view),
        view.message.trim(),
        firstSeen,
        count,
        nameOf(event),
      ];
    },
  };
}
