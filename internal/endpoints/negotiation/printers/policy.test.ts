/** poddisruptionbudgets and priorityclasses: columns and cells as kube prints them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podDisruptionBudgetPrinter, priorityClassPrinter } from './policy.js';
import { ago, columnSpec, day, now } from './testing.js';

describe('poddisruptionbudgets', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(podDisruptionBudgetPrinter), [
      ['Name', 'string', 'name', 0],
      ['Min Available', 'string', '', 0],
      ['Max Unavailable', 'string', '', 0],
      ['Allowed Disruptions', 'integer', '', 0],
      ['Age', 'string', '', 0],
    ]);
  });
  it('print numbers, percentages and N/A', () => {
    const pdb = { metadata: { name: 'pdb1', creationTimestamp: ago(3 * day) }, spec: { minAvailable: 22 }, status: { disruptionsAllowed: 5 } };
    assert.deepEqual(podDisruptionBudgetPrinter.cells(pdb, now), ['pdb1', '22', 'N/A', 5, '3d']);
    const pct = { metadata: { name: 'pdb2' }, spec: { maxUnavailable: '25%' }, status: {} };
    assert.deepEqual(podDisruptionBudgetPrinter.cells(pct, now), ['pdb2', 'N/A', '25%', 0, '<unknown>']);
  });
});

describe('priorityclasses', () => {
  it('have kube columns, PreemptionPolicy among the normal ones', () => {
    assert.deepEqual(columnSpec(priorityClassPrinter), [
      ['Name', 'string', 'name', 0],
      ['Value', 'integer', '', 0],
      ['Global-Default', 'boolean', '', 0],
      ['Age', 'string', '', 0],
      ['PreemptionPolicy', 'string', '', 0],
    ]);
  });
  it('print value, global default and preemption policy', () => {
    const pc = { metadata: { name: 'system-node-critical', creationTimestamp: ago(3 * day) }, value: 2000001000, preemptionPolicy: 'PreemptLowerPriority' };
    assert.deepEqual(priorityClassPrinter.cells(pc, now), ['system-node-critical', 2000001000, false, '3d', 'PreemptLowerPriority']);
    assert.deepEqual(priorityClassPrinter.cells({ metadata: { name: 'low' }, value: -10, globalDefault: true }, now), ['low', -10, true, '<unknown>', '']);
  });
});
