/** Events, core/v1 and events.k8s.io/v1: columns and cells as kube prints them (cf. kube's TestPrintEvent*). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventPrinter } from './events.js';
import { ago, columnSpec, hour, minute, now } from './testing.js';

const core = eventPrinter(false);
const eventsAPI = eventPrinter(true);

describe('event columns', () => {
  it('match kube: five shown, five wide', () => {
    const want = [
      ['Last Seen', 'string', '', 0],
      ['Type', 'string', '', 0],
      ['Reason', 'string', '', 0],
      ['Object', 'string', '', 0],
      ['Subobject', 'string', '', 1],
      ['Source', 'string', '', 1],
      ['Message', 'string', '', 0],
      ['First Seen', 'string', '', 1],
      ['Count', 'string', '', 1],
      ['Name', 'string', 'name', 1],
    ];
    assert.deepEqual(columnSpec(core), want);
    assert.deepEqual(columnSpec(eventsAPI), want);
  });
});

describe('core/v1 events', () => {
  it('print last seen, type, reason, object, subobject, source, message, first seen, count, name', () => {
    const e = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web-0.17d2c3', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'web-0', namespace: 'default', fieldPath: 'spec.containers{app}' },
      reason: 'BackOff',
      message: '  Back-off restarting failed container\n',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: ago(2 * hour),
      lastTimestamp: ago(3 * minute),
      count: 42,
      type: 'Warning',
    };
    assert.deepEqual(core.cells(e, now), ['3m', 'Warning', 'BackOff', 'pod/web-0', 'spec.containers{app}', 'kubelet, node-1', 'Back-off restarting failed container', '120m', 42, 'web-0.17d2c3']);
  });
  it('fall back to eventTime, to first seen, to the reporting fields and to a count of one', () => {
    const e = {
      metadata: { name: 'e1' },
      involvedObject: { kind: 'Node' },
      reason: 'Starting',
      message: 'Starting kubelet.',
      eventTime: '2025-06-01T11:59:30.123456Z',
      reportingComponent: 'kubelet',
      reportingInstance: 'node-2',
      type: 'Normal',
    };
    assert.deepEqual(core.cells(e, now), ['29s', 'Normal', 'Starting', 'node', '', 'kubelet, node-2', 'Starting kubelet.', '29s', 1, 'e1']);
  });
  it('take last seen and count from the series', () => {
    const e = { metadata: { name: 'e2' }, firstTimestamp: ago(hour), lastTimestamp: ago(30 * minute), count: 2, series: { count: 7, lastObservedTime: '2025-06-01T11:58:00.000000Z' }, source: { component: 'controller' } };
    assert.deepEqual(core.cells(e, now).filter((_, i) => [0, 5, 7, 8].includes(i)), ['2m', 'controller', '60m', 7]);
  });
  it('print <unknown> without any timestamp', () => {
    const cells = core.cells({ metadata: { name: 'e3' } }, now);
    assert.equal(cells[0], '<unknown>');
    assert.equal(cells[7], '<unknown>');
  });
});

describe('events.k8s.io/v1 events', () => {
  it('read regarding, note and the deprecated fields as kube converts them', () => {
    const e = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'web.1' },
      eventTime: '2025-06-01T11:00:00.000000Z',
      reportingController: 'default-scheduler',
      reportingInstance: 'default-scheduler-cp-1',
      action: 'Binding',
      reason: 'Scheduled',
      regarding: { kind: 'Pod', name: 'web', namespace: 'default' },
      note: 'Successfully assigned default/web to node-1',
      type: 'Normal',
      deprecatedSource: { component: 'default-scheduler' },
      deprecatedCount: 3,
    };
    assert.deepEqual(eventsAPI.cells(e, now), ['60m', 'Normal', 'Scheduled', 'pod/web', '', 'default-scheduler, default-scheduler-cp-1', 'Successfully assigned default/web to node-1', '60m', 3, 'web.1']);
  });
  it('count a singleton as one and take the series when there is one', () => {
    const e = { metadata: { name: 'x' }, eventTime: ago(10 * minute), regarding: { kind: 'Deployment', name: 'web' }, note: 'Scaled up', series: { count: 4, lastObservedTime: ago(20) } };
    const cells = eventsAPI.cells(e, now);
    assert.deepEqual([cells[0], cells[3], cells[7], cells[8]], ['20s', 'deployment/web', '10m', 4]);
    assert.equal(eventsAPI.cells({ metadata: { name: 'y' }, eventTime: ago(5) }, now)[8], 1);
  });
  it('read an object by its own apiVersion', () => {
    const coreShaped = { apiVersion: 'v1', metadata: { name: 'z' }, involvedObject: { kind: 'Pod', name: 'p' }, message: 'm' };
    assert.deepEqual(eventsAPI.cells(coreShaped, now).slice(3, 7), ['pod/p', '', '', 'm']);
  });
});
