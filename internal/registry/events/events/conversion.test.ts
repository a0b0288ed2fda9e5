import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { eventsV1Conversion } from './conversion.js';

const stored: KubeObject = {
  metadata: { name: 'e.1', namespace: 'ns', uid: 'u', resourceVersion: '7', labels: { a: 'b' } },
  involvedObject: { kind: 'Pod', namespace: 'ns', name: 'p', uid: 'pu' },
  reason: 'Pulled',
  message: 'pulled image',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2024-05-01T10:00:00Z',
  lastTimestamp: '2024-05-01T10:05:00Z',
  count: 4,
  type: 'Normal',
  eventTime: '2024-05-01T10:00:00.000001Z',
  series: { count: 4, lastObservedTime: '2024-05-01T10:05:00.000000Z' },
  action: 'Pulling',
  related: { kind: 'Node', name: 'node-1' },
  reportingComponent: 'kubelet',
  reportingInstance: 'node-1',
};

const external: KubeObject = {
  metadata: { name: 'e.1', namespace: 'ns', uid: 'u', resourceVersion: '7', labels: { a: 'b' } },
  eventTime: '2024-05-01T10:00:00.000001Z',
  series: { count: 4, lastObservedTime: '2024-05-01T10:05:00.000000Z' },
  reportingController: 'kubelet',
  reportingInstance: 'node-1',
  action: 'Pulling',
  reason: 'Pulled',
  regarding: { kind: 'Pod', namespace: 'ns', name: 'p', uid: 'pu' },
  related: { kind: 'Node', name: 'node-1' },
  note: 'pulled image',
  type: 'Normal',
  deprecatedSource: { component: 'kubelet', host: 'node-1' },
  deprecatedFirstTimestamp: '2024-05-01T10:00:00Z',
  deprecatedLastTimestamp: '2024-05-01T10:05:00Z',
  deprecatedCount: 4,
};

describe('events.k8s.io/v1 conversion', () => {
  it('maps every core/v1 field to its events.k8s.io/v1 name', () => {
    assert.deepEqual(eventsV1Conversion.toExternal(stored), external);
  });

  it('maps back to the stored core/v1 form', () => {
    assert.deepEqual(eventsV1Conversion.toInternal(external), stored);
  });

  it('round-trips both ways and never mutates its input', () => {
    const before = structuredClone(stored);
    const out = eventsV1Conversion.toExternal(stored);
    assert.deepEqual(stored, before);
    (out.metadata.labels as Record<string, string>).a = 'changed';
    (out.regarding as Record<string, string>).name = 'changed';
    assert.deepEqual(stored, before);
    assert.deepEqual(eventsV1Conversion.toInternal(eventsV1Conversion.toExternal(stored)), stored);
    assert.deepEqual(eventsV1Conversion.toExternal(eventsV1Conversion.toInternal(external)), external);
  });

  it('drops the old series state and fields the other side lacks', () => {
    const withState = { ...stored, series: { count: 2, lastObservedTime: 't', state: 'Ongoing' }, apiVersion: 'v1', kind: 'Event' };
    const out = eventsV1Conversion.toExternal(withState);
    assert.deepEqual(out.series, { count: 2, lastObservedTime: 't' });
    assert.equal(out.apiVersion, undefined);
    assert.equal(out.message, undefined);
    assert.equal(out.involvedObject, undefined);
  });
});
