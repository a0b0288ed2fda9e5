/**
 * The texts of /debug/api_priority_and_fairness/dump_priority_levels, dump_queues and
 * dump_requests, with kube's columns (kube 1.33 apf_controller_debug.go): comma-and-tab separated
 * rows aligned by Go's tabwriter. Levels are listed by name.
 */
import { performance } from 'node:perf_hooks';
import { goDuration, rfc3339Nano, seatSeconds } from './go-format.js';
import type { FairRequest } from './queue.js';
import type { QueueSet } from './queue-set.js';
import { tabwrite } from './tabwriter.js';

/** A level as the dumps see it. */
export interface DumpedLevel {
  readonly name: string;
  readonly quiescing: boolean;
  readonly qs: QueueSet;
}

const row = (cells: readonly (string | number | boolean)[]): string => cells.map(String).join(',\t');

/** dump_priority_levels. */
export function dumpPriorityLevels(levels: readonly DumpedLevel[]): string {
  const lines = [
    row(['PriorityLevelName', 'ActiveQueues', 'IsIdle', 'IsQuiescing', 'WaitingRequests', 'ExecutingRequests', 'DispatchedRequests', 'RejectedRequests', 'TimedoutRequests', 'CancelledRequests']),
  ];
  for (const l of levels) {
    const q = l.qs;
    const active = q.queues.filter((x) => x.length > 0).length;
    lines.push(row([l.name, active, q.isIdle(), l.quiescing, q.totRequestsWaiting, q.totRequestsExecuting, q.totDispatched, q.totRejected, q.totTimedOut, q.totCancelled]));
  }
  return tabwrite(`${lines.join('\n')}\n`);
}

/** dump_queues. */
export function dumpQueues(levels: readonly DumpedLevel[]): string {
  const lines = [row(['PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests', 'SeatsInUse', 'NextDispatchR', 'InitialSeatsSum', 'MaxSeatsSum', 'TotalWorkSum'])];
  for (const l of levels) {
    l.qs.queues.forEach((q, i) => {
      lines.push(row([l.name, i, q.length, q.executing.size, q.seatsInUse, seatSeconds(q.nextDispatchR), q.initialSeatsSum, q.maxSeatsSum, seatSeconds(q.totalWorkSum)]));
    });
  }
  return tabwrite(`${lines.join('\n')}\n`);
}

/** dump_requests (with ?includeRequestDetails=1, the user and request attributes too). */
export function dumpRequests(levels: readonly DumpedLevel[], includeRequestDetails: boolean): string {
  let header = row(['PriorityLevelName', 'FlowSchemaName', 'QueueIndex', 'RequestIndexInQueue', 'FlowDistingsher', 'ArriveTime', 'InitialSeats', 'FinalSeats', 'AdditionalLatency', 'StartTime']);
  if (includeRequestDetails) header += `,\t${row(['UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource'])}`;
  const lines = [header];
  const add = (level: string, iq: number, ir: number, r: FairRequest): void => {
    let line = row([
      level,
      r.series.flowSchema,
      iq,
      ir,
      r.flowDistinguisher,
      rfc3339Nano(performance.timeOrigin + r.arrivalMs),
      r.initialSeats,
      r.finalSeats,
      goDuration(r.additionalLatencyMs),
      rfc3339Nano(r.startMs === 0 ? 0 : performance.timeOrigin + r.startMs),
    ]);
    if (includeRequestDetails) {
      const ri = r.requestInfo;
      const gv = ri.apiGroup ? `${ri.apiGroup}/${ri.apiVersion}` : ri.apiVersion;
      line += `,\t${row([r.user.name, ri.verb, ri.path, ri.namespace, ri.name, gv, ri.resource, ri.subresource])}`;
    }
    lines.push(line);
  };
  for (const l of levels) {
    l.qs.queues.forEach((q, iq) => {
      q.waiting().forEach((r, ir) => add(l.name, iq, ir, r));
      for (const r of q.executing) add(l.name, iq, -1, r);
    });
    for (const r of l.qs.queueless) add(l.name, -1, -1, r);
  }
  return tabwrite(`${lines.join('\n')}\n`);
}
