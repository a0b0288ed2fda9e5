/** flowschemas and prioritylevelconfigurations: columns and cells as kube prints them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flowSchemaPrinter, priorityLevelConfigurationPrinter } from './flowcontrol.js';
import { ago, columnSpec, day, now } from './testing.js';

describe('flowschemas and prioritylevelconfigurations', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(flowSchemaPrinter).map((c) => c[0]), ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL']);
    assert.deepEqual(columnSpec(priorityLevelConfigurationPrinter).map((c) => c[0]), ['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age']);
  });
  it('print a FlowSchema with and without its Dangling condition', () => {
    const fs = { metadata: { name: 'global-default', creationTimestamp: ago(3 * day) }, spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 9900, distinguisherMethod: { type: 'ByUser' } }, status: { conditions: [{ type: 'Dangling', status: 'False' }] } };
    assert.deepEqual(flowSchemaPrinter.cells(fs, now), ['global-default', 'global-default', 9900, 'ByUser', '3d', 'False']);
    assert.deepEqual(flowSchemaPrinter.cells({ metadata: { name: 'exempt' }, spec: { priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 1 } }, now), ['exempt', 'exempt', 1, '<none>', '<unknown>', '?']);
  });
  it('print queuing, rejecting and exempt levels', () => {
    const queued = { metadata: { name: 'workload-low' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 100, limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } } } } };
    assert.deepEqual(priorityLevelConfigurationPrinter.cells(queued, now), ['workload-low', 'Limited', 100, 128, 6, 50, '<unknown>']);
    const reject = { metadata: { name: 'catch-all' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } } };
    assert.deepEqual(priorityLevelConfigurationPrinter.cells(reject, now), ['catch-all', 'Limited', 5, '<none>', '<none>', '<none>', '<unknown>']);
    const exempt = { metadata: { name: 'exempt' }, spec: { type: 'Exempt', exempt: {} } };
    assert.deepEqual(priorityLevelConfigurationPrinter.cells(exempt, now), ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>', '<unknown>']);
  });
});
