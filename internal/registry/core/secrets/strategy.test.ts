import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { fieldErrorMessage, type FieldError } from '../../../validation/field-error.js';
import { requestContext } from '../shared/testing.js';
import { normalizeSecret, secretStrategy } from './strategy.js';

const ctx = requestContext('POST', '/api/v1/namespaces/ns/secrets');
const secret = (extra: Record<string, unknown>): KubeObject => ({ metadata: { name: 's', namespace: 'ns' }, ...extra });
const messages = (errs: FieldError[]): string[] => errs.map(fieldErrorMessage);
const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('secret strategy', () => {
  it('folds stringData into data as base64, stringData winning, and defaults type to Opaque', () => {
    const obj = secret({ data: { a: b64('old'), b: b64('keep') }, stringData: { a: 'new', c: 'ünï' } });
    secretStrategy.prepareForCreate(ctx, obj);
    assert.deepEqual(obj.data, { a: b64('new'), b: b64('keep'), c: b64('ünï') });
    assert.equal(obj.stringData, undefined);
    assert.equal(obj.type, 'Opaque');
    const typed = secret({ type: 'kubernetes.io/tls' });
    normalizeSecret(typed);
    assert.equal(typed.type, 'kubernetes.io/tls');
  });

  it('folds stringData on update too', () => {
    const obj = secret({ stringData: { x: 'y' } });
    secretStrategy.prepareForUpdate(ctx, obj, secret({ type: 'Opaque' }));
    assert.deepEqual(obj.data, { x: b64('y') });
  });

  it('rejects values that are not base64 without echoing them', () => {
    assert.deepEqual(messages(secretStrategy.validate(ctx, secret({ type: 'Opaque', data: { k: 'c2VjcmV0!' } }))), [
      'data[k]: Invalid value: "<secret contents redacted>": illegal base64 data at input byte 8',
    ]);
  });

  it('rejects bad keys and payloads over 1 MiB', () => {
    assert.deepEqual(messages(secretStrategy.validate(ctx, secret({ data: { '.': b64('x') } }))), [`data[.]: Invalid value: ".": must not be '.'`]);
    const big = Buffer.alloc(1024 * 1024 + 1).toString('base64');
    assert.deepEqual(messages(secretStrategy.validate(ctx, secret({ data: { big } }))), ['data: Too long: may not be more than 1048576 bytes']);
  });

  it('requires the keys of the well-known types', () => {
    assert.deepEqual(messages(secretStrategy.validate(ctx, secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c') } }))), [
      'data[tls.key]: Required value',
    ]);
    assert.deepEqual(messages(secretStrategy.validate(ctx, secret({ type: 'kubernetes.io/service-account-token' }))), [
      'metadata.annotations[kubernetes.io/service-account.name]: Required value',
    ]);
    assert.equal(secretStrategy.validate(ctx, secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{}') } })).length, 0);
    assert.equal(secretStrategy.validate(ctx, secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('nope') } })).length, 1);
  });

  it('keeps type immutable and data frozen when immutable', () => {
    assert.deepEqual(messages(secretStrategy.validateUpdate(ctx, secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } }), secret({ type: 'Opaque' }))), [
      'type: Invalid value: "kubernetes.io/tls": field is immutable',
    ]);
    const old = secret({ type: 'Opaque', immutable: true, data: { a: b64('1') } });
    assert.deepEqual(messages(secretStrategy.validateUpdate(ctx, secret({ type: 'Opaque', immutable: true, data: { a: b64('2') } }), old)), [
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
    assert.deepEqual(messages(secretStrategy.validateUpdate(ctx, secret({ type: 'Opaque', data: { a: b64('1') } }), old)), [
      'immutable: Forbidden: field is immutable when `immutable` is set',
    ]);
  });

  it('selects by type', () => {
    assert.deepEqual(secretStrategy.selectableFields.extra, ['type']);
    assert.equal(secretStrategy.selectableFields.style, 'core');
    assert.deepEqual(secretStrategy.selectableFields.values(secret({ type: 'Opaque' })), { type: 'Opaque' });
  });
});
