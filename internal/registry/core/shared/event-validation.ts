/**
 * Event validation (kube's pkg/apis/core/validation/events.go), shared by core/v1 events and
 * events.k8s.io/v1: every write passes the legacy rules; writes made through events.k8s.io (any
 * group version other than core v1) must also be well-formed new-style events and, on update, keep
 * what they reported. Field paths name the stored (core/v1) fields, as kube's do.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { RequestInfo } from '../../../request/request-info.js';
import { invalid, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Subdomain, isQualifiedName, utf8Length } from '../../../validation/label-values.js';
import { validateImmutableField } from './field-immutable.js';
import { numberAt, objectAt, stringAt, type JsonObject } from './json-value.js';
import { semanticEqual } from './semantic-equal.js';

/** The longest reportingInstance kube accepts, in bytes. */
export const reportingInstanceLengthLimit = 128;
/** The longest action kube accepts, in bytes. */
export const actionLengthLimit = 128;
/** The longest reason kube accepts on a new-style event, in bytes. */
export const reasonLengthLimit = 128;
/** The longest note (core message) kube accepts on a new-style event, in bytes. */
export const noteLengthLimit = 1024;

/** True when the request was made through core/v1 (legacy rules only). */
export function isCoreV1Request(info: RequestInfo): boolean {
  return info.apiGroup === '' && info.apiVersion === 'v1';
}

function isZeroTime(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

function tooLongFor(path: string, limit: number): FieldError {
  return invalid(path, '', `can have at most ${limit} characters`);
}

/** legacyValidateEvent: namespaces agree, and events with eventTime carry the new-style fields. */
function legacyValidateEvent(event: KubeObject, coreRequest: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const e = event as JsonObject;
  const ns = event.metadata.namespace ?? '';
  const involvedNs = stringAt(objectAt(e, 'involvedObject'), 'namespace');
  const mismatch = (): FieldError => invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace');
  if (isZeroTime(e.eventTime)) {
    if (!involvedNs) {
      // Old clients leave involvedObject.namespace empty for events in "default".
      if (ns !== '' && ns !== 'default') errs.push(mismatch());
    } else if (ns !== involvedNs) errs.push(mismatch());
  } else {
    if (!involvedNs && ns !== 'default' && ns !== 'kube-system') errs.push(mismatch());
    const controllerField = coreRequest ? 'reportingComponent' : 'reportingController';
    const controller = stringAt(e, 'reportingComponent');
    if (!controller) errs.push(required(controllerField, ''));
    for (const m of isQualifiedName(controller)) errs.push(invalid(controllerField, controller, m));
    const instance = stringAt(e, 'reportingInstance');
    if (!instance) errs.push(required('reportingInstance', ''));
    if (utf8Length(instance) > reportingInstanceLengthLimit) errs.push(tooLongFor('reportingInstance', reportingInstanceLengthLimit));
    const action = stringAt(e, 'action');
    if (!action) errs.push(required('action', ''));
    if (utf8Length(action) > actionLengthLimit) errs.push(tooLongFor('action', actionLengthLimit));
    const reason = stringAt(e, 'reason');
    if (!reason) errs.push(required('reason', ''));
    if (utf8Length(reason) > reasonLengthLimit) errs.push(tooLongFor('reason', reasonLengthLimit));
    if (utf8Length(stringAt(e, 'message')) > noteLengthLimit) errs.push(tooLongFor('message', noteLengthLimit));
  }
  for (const m of isDNS1123Subdomain(ns)) errs.push(invalid('namespace', ns, m));
  return errs;
}

function validateSeries(e: JsonObject): FieldError[] {
  const series = objectAt(e, 'series');
  if (!series) return [];
  const errs: FieldError[] = [];
  if ((numberAt(series, 'count') ?? 0) < 2) errs.push(invalid('series.count', '', 'should be at least 2'));
  if (isZeroTime(series.lastObservedTime)) errs.push(required('series.lastObservedTime', ''));
  return errs;
}

/** ValidateEventCreate (metadata aside, which the generic layer checks). */
export function validateEventCreate(event: KubeObject, info: RequestInfo): FieldError[] {
  const core = isCoreV1Request(info);
  const errs = legacyValidateEvent(event, core);
  if (core) return errs;
  const e = event as JsonObject;
  errs.push(...validateSeries(e));
  if (isZeroTime(e.eventTime)) errs.push(required('eventTime', ''));
  const type = stringAt(e, 'type');
  if (type !== 'Normal' && type !== 'Warning') errs.push(invalid('type', '', `has invalid value: ${type}`));
  if (!isZeroTime(e.firstTimestamp)) errs.push(invalid('firstTimestamp', '', 'needs to be unset'));
  if (!isZeroTime(e.lastTimestamp)) errs.push(invalid('lastTimestamp', '', 'needs to be unset'));
  if ((numberAt(e, 'count') ?? 0) !== 0) errs.push(invalid('count', '', 'needs to be unset'));
  const source = objectAt(e, 'source');
  if (stringAt(source, 'component') || stringAt(source, 'host')) errs.push(invalid('source', '', 'needs to be unset'));
  return errs;
}

/** A MicroTime compared at microsecond precision (kube tolerates finer differences). */
function truncateMicro(v: unknown): unknown {
  return typeof v === 'string' ? v.replace(/(\.\d{6})\d+/, '$1') : v;
}

/** ValidateEventUpdate (metadata aside). */
export function validateEventUpdate(event: KubeObject, old: KubeObject, info: RequestInfo): FieldError[] {
  const core = isCoreV1Request(info);
  const errs = legacyValidateEvent(event, core);
  if (core) return errs;
  const e = event as JsonObject;
  const o = old as JsonObject;
  if (!semanticEqual(e.series, o.series)) errs.push(...validateSeries(e));
  const immutable = (field: string): void => {
    errs.push(...validateImmutableField(e[field], o[field], field));
  };
  for (const f of ['involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count', 'reason', 'type']) immutable(f);
  if (!semanticEqual(truncateMicro(e.eventTime), truncateMicro(o.eventTime))) immutable('eventTime');
  immutable('action');
  immutable('related');
  errs.push(...validateImmutableField(e.reportingComponent, o.reportingComponent, 'reportingController'));
  immutable('reportingInstance');
  return errs;
}

