/**
 * Pods: NAME READY STATUS RESTARTS AGE, and wide IP NODE NOMINATED NODE READINESS GATES. A pod
 * that succeeded or failed also carries a Completed row condition, as kube's rows do.
 */
import { creationAge } from './ages.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { type Json, nameOf, objectAt, objectsAt, stringAt } from './json-fields.js';
import { podStatusCells } from './pod-status.js';
import type { TablePrinter, TableRowCondition } from './types.js';

const succeeded: readonly TableRowCondition[] = [
  { type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' },
];
const failed: readonly TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

/** The pod's IP as kube's internal type holds it: status.podIP wins over podIPs[0] (v1 conversion). */
function podIP(status: Json | undefined): string {
  const ip = stringAt(status, 'podIP');
  if (ip !== '') return ip;
  return stringAt(objectsAt(status, 'podIPs')[0], 'ip');
}

/** "true/total" over spec.readinessGates, each judged by the first condition of its type. */
function readinessGates(spec: Json | undefined, status: Json | undefined): string {
  const gates = objectsAt(spec, 'readinessGates');
  if (gates.length === 0) return '<none>';
  const conditions = objectsAt(status, 'conditions');
  let trueConditions = 0;
  for (const gate of gates) {
    const condition = conditions.find((c) => stringAt(c, 'type') === stringAt(gate, 'conditionType'));
    if (condition && stringAt(condition, 'status') === 'True') trueConditions++;
  }
  return `${trueConditions}/${gates.length}`;
}

function orNone(s: string): string {
  return s === '' ? '<none>' : s;
}

/** core/v1 pods. */
export const podPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Ready containers over all long-running containers (app containers and sidecars).'),
    column('Status', 'string', 'A one-word summary of the pod and its containers, as kubectl shows it.'),
    column('Restarts', 'string', 'Container restarts in total, and how long ago the latest one ended.'),
    ageColumn,
    column('IP', 'string', 'The first IP address assigned to the pod.', 1),
    column('Node', 'string', 'The node the pod is bound to.', 1),
    column('Nominated Node', 'string', 'The node the scheduler nominated for the pod while preempting others.', 1),
    column('Readiness Gates', 'string', 'Readiness gates whose condition is True, over all readiness gates.', 1),
  ],
  cells(pod, now) {
    const spec = objectAt(pod, 'spec');
    const status = objectAt(pod, 'status');
    const { ready, status: summary, restarts } = podStatusCells(pod, now);
    return [
      nameOf(pod),
      ready,
      summary,
      restarts,
      creationAge(pod, now),
      orNone(podIP(status)),
      orNone(stringAt(spec, 'nodeName')),
      orNone(stringAt(status, 'nominatedNodeName')),
      readinessGates(spec, status),
    ];
  },
  rowConditions(pod) {
    const phase = stringAt(objectAt(pod, 'status'), 'phase');
    if (phase === 'Succeeded') return succeeded;
    if (phase === 'Failed') return failed;
    return undefined;
  },
};
