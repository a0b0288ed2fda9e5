/**
 * policy/v1 poddisruptionbudgets (MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE) and
 * scheduling.k8s.io priorityclasses (VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY).
 */
import { creationAge } from './ages.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { type Json, intAt, nameOf, objectAt, optionalString } from './json-fields.js';
import type { TablePrinter } from './types.js';

/** An IntOrString as its String(): the number in decimal or the string; "N/A" when unset. */
function intOrStringText(o: Json | undefined, key: string): string {
  const v = o?.[key];
  if (typeof v === 'number') return String(Math.trunc(v));
  if (typeof v === 'string') return v;
  return 'N/A';
}

/** policy/v1 poddisruptionbudgets. */
export const podDisruptionBudgetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Min Available', 'string', 'Pods that must stay available, as a number or a percentage.'),
    column('Max Unavailable', 'string', 'Pods that may be unavailable, as a number or a percentage.'),
    column('Allowed Disruptions', 'integer', 'Pods that may be disrupted right now.'),
    ageColumn,
  ],
  cells(pdb, now) {
    const spec = objectAt(pdb, 'spec');
    return [
      nameOf(pdb),
      intOrStringText(spec, 'minAvailable'),
      intOrStringText(spec, 'maxUnavailable'),
      intAt(objectAt(pdb, 'status'), 'disruptionsAllowed'),
      creationAge(pdb, now),
    ];
  },
};

/** scheduling.k8s.io priorityclasses; PREEMPTIONPOLICY is a normal-priority column in kube. */
export const priorityClassPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Value', 'integer', 'The priority pods of this class get; higher is more important.'),
    column('Global-Default', 'boolean', 'Whether pods without a priority class get this one.'),
    ageColumn,
    column('PreemptionPolicy', 'string', 'Whether pods of this class may preempt lower-priority pods.'),
  ],
  cells(pc, now) {
    return [nameOf(pc), intAt(pc, 'value'), pc.globalDefault === true, creationAge(pc, now), optionalString(pc, 'preemptionPolicy') ?? ''];
  },
};
