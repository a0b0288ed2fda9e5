import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { fieldErrorMessage, type FieldError } from '../../../validation/field-error.js';
import { requestContext } from '../shared/testing.js';
import { eventSelectableFields, eventStrategy } from './strategy.js';

const core = requestContext('POST', '/api/v1/namespaces/ns/events');
const eventsV1 = requestContext('POST', '/apis/events.k8s.io/v1/namespaces/ns/events');
const messages = (errs: FieldError[]): string[] => errs.map(fieldErrorMessage);
const ev = (fields: Record<string, unknown>, namespace = 'ns'): KubeObject => ({ metadata: { name: 'e.1', namespace }, ...fields });

const newStyle = {
  eventTime: '2024-05-01T10:00:00.000000Z',
  involvedObject: { kind: 'Pod', namespace: 'ns', name: 'p' },
  reportingComponent: 'kubelet',
  reportingInstance: 'node-1',
  action: 'Pulling',
  reason: 'Pulling',
  type: 'Normal',
  message: 'pulling image',
};

describe('event strategy: core/v1', () => {
  it('requires involvedObject.namespace to match the event namespace', () => {
    assert.deepEqual(eventStrategy.validate(core, ev({ involvedObject: { namespace: 'ns' } })), []);
    assert.deepEqual(eventStrategy.validate(core, ev({ involvedObject: {} }, 'default')), []);
    assert.deepEqual(messages(eventStrategy.validate(core, ev({ involvedObject: { namespace: 'other' } }))), [
      'involvedObject.namespace: Invalid value: "other": does not match event.namespace',
    ]);
    assert.deepEqual(messages(eventStrategy.validate(core, ev({ involvedObject: {} }))), [
      'involvedObject.namespace: Invalid value: "": does not match event.namespace',
    ]);
  });

  it('checks new-style events even through core/v1, naming reportingComponent', () => {
    assert.deepEqual(eventStrategy.validate(core, ev(newStyle)), []);
    assert.deepEqual(messages(eventStrategy.validate(core, ev({ ...newStyle, reportingComponent: '', action: 'a'.repeat(129), message: 'm'.repeat(1025) }))), [
      'reportingComponent: Required value',
      'reportingComponent: Invalid value: "": name part must be non-empty',
      `reportingComponent: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'action: Invalid value: "": can have at most 128 characters',
      'message: Invalid value: "": can have at most 1024 characters',
    ]);
  });

  it('lets core/v1 updates change anything the legacy rules allow', () => {
    assert.deepEqual(eventStrategy.validateUpdate(core, ev({ ...newStyle, message: 'changed', count: 3 }), ev(newStyle)), []);
  });
});

describe('event strategy: events.k8s.io/v1', () => {
  it('requires eventTime, a known type and no deprecated fields on create', () => {
    assert.deepEqual(eventStrategy.validate(eventsV1, ev(newStyle)), []);
    assert.deepEqual(
      messages(eventStrategy.validate(eventsV1, ev({ ...newStyle, eventTime: null, type: 'Odd', count: 2, source: { component: 'x' }, firstTimestamp: '2024-01-01T00:00:00Z' }))),
      [
        'eventTime: Required value',
        'type: Invalid value: "": has invalid value: Odd',
        'firstTimestamp: Invalid value: "": needs to be unset',
        'count: Invalid value: "": needs to be unset',
        'source: Invalid value: "": needs to be unset',
      ],
    );
  });

  it('requires the reporting fields, naming reportingController', () => {
    const { reportingComponent: _rc, reportingInstance: _ri, action: _a, reason: _r, ...rest } = newStyle;
    assert.deepEqual(messages(eventStrategy.validate(eventsV1, ev(rest))).filter((m) => m.endsWith('Required value')), [
      'reportingController: Required value',
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
    ]);
  });

  it('checks series', () => {
    assert.deepEqual(messages(eventStrategy.validate(eventsV1, ev({ ...newStyle, series: { count: 1 } }))), [
      'series.count: Invalid value: "": should be at least 2',
      'series.lastObservedTime: Required value',
    ]);
  });

  it('keeps what an event reported immutable on update, except series', () => {
    const old = ev(newStyle);
    assert.deepEqual(eventStrategy.validateUpdate(eventsV1, ev({ ...newStyle, series: { count: 2, lastObservedTime: '2024-05-01T10:01:00.000000Z' } }), old), []);
    assert.deepEqual(messages(eventStrategy.validateUpdate(eventsV1, ev({ ...newStyle, message: 'other', reportingComponent: 'kubelet2' }), old)), [
      'message: Invalid value: "other": field is immutable',
      'reportingController: Invalid value: "kubelet2": field is immutable',
    ]);
    // Sub-microsecond differences in eventTime are tolerated.
    assert.deepEqual(eventStrategy.validateUpdate(eventsV1, ev({ ...newStyle, eventTime: '2024-05-01T10:00:00.000000123Z' }), old), []);
  });
});

describe('event field selectors', () => {
  it("gives kube's field set, falling back to the controller for source", () => {
    assert.deepEqual(eventSelectableFields(ev({ ...newStyle, involvedObject: { ...newStyle.involvedObject, uid: 'u1' } })), {
      'involvedObject.kind': 'Pod',
      'involvedObject.namespace': 'ns',
      'involvedObject.name': 'p',
      'involvedObject.uid': 'u1',
      'involvedObject.apiVersion': '',
      'involvedObject.resourceVersion': '',
      'involvedObject.fieldPath': '',
      reason: 'Pulling',
      reportingComponent: 'kubelet',
      source: 'kubelet',
      type: 'Normal',
    });
    assert.equal(eventSelectableFields(ev({ source: { component: 'scheduler' } })).source, 'scheduler');
    assert.equal(eventStrategy.selectableFields.style, 'core');
    assert.equal(eventStrategy.defaultGarbageCollectionPolicy, 'Unsupported');
  });
});
