import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { fieldErrorMessage } from '../../../validation/field-error.js';
import { requestContext } from '../shared/testing.js';
import { configMapStrategy } from './strategy.js';

const ctx = requestContext('POST', '/api/v1/namespaces/ns/configmaps');
const cm = (extra: Record<string, unknown>): KubeObject => ({ metadata: { name: 'c', namespace: 'ns' }, ...extra });
const messages = (errs: ReturnType<typeof configMapStrategy.validate>): string[] => errs.map(fieldErrorMessage);

describe('configmap strategy', () => {
  it('accepts valid data and binaryData', () => {
    assert.deepEqual(configMapStrategy.validate(ctx, cm({ data: { 'a.b': 'x', B_C: '' }, binaryData: { bin: 'AAEC' } })), []);
  });

  it('rejects bad keys at data[key] with the config key text', () => {
    assert.deepEqual(messages(configMapStrategy.validate(ctx, cm({ data: { 'a b': 'x' } }))), [
      `data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ]);
    assert.deepEqual(messages(configMapStrategy.validate(ctx, cm({ binaryData: { '..x': 'AA==' } }))), [
      `binaryData[..x]: Invalid value: "..x": must not start with '..'`,
    ]);
  });

  it('rejects a key in both data and binaryData', () => {
    assert.deepEqual(messages(configMapStrategy.validate(ctx, cm({ data: { k: 'v' }, binaryData: { k: 'AA==' } }))), [
      'data[k]: Invalid value: "k": duplicate of key present in binaryData',
    ]);
  });

  it('rejects more than 1 MiB in total at the empty path', () => {
    const big = 'x'.repeat(600 * 1024);
    const errs = configMapStrategy.validate(ctx, cm({ data: { a: big, b: big } }));
    assert.deepEqual(messages(errs), [': Too long: may not be more than 1048576 bytes']);
    assert.deepEqual(configMapStrategy.validate(ctx, cm({ data: { a: big } })), []);
  });

  it('rejects binaryData that is not base64', () => {
    assert.deepEqual(messages(configMapStrategy.validate(ctx, cm({ binaryData: { k: 'abc' } }))), [
      'binaryData[k]: Invalid value: "abc": illegal base64 data at input byte 0',
    ]);
  });

  it('freezes data, binaryData and immutable once immutable is true', () => {
    const old = cm({ immutable: true, data: { a: '1' } });
    assert.deepEqual(configMapStrategy.validateUpdate(ctx, cm({ immutable: true, data: { a: '1' } }), old), []);
    assert.deepEqual(messages(configMapStrategy.validateUpdate(ctx, cm({ immutable: true, data: { a: '2' } }), old)), [
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
    assert.deepEqual(messages(configMapStrategy.validateUpdate(ctx, cm({ data: { a: '1' }, binaryData: { b: 'AA==' } }), old)), [
      'immutable: Forbidden: field is immutable when `immutable` is set',
      'binaryData: Forbidden: field is immutable when `immutable` is set',
    ]);
    // A mutable config map may become immutable and change data in the same write.
    assert.deepEqual(configMapStrategy.validateUpdate(ctx, cm({ immutable: true, data: { a: '2' } }), cm({ data: { a: '1' } })), []);
  });

  it('selects by metadata only, with the generic wording', () => {
    assert.deepEqual(configMapStrategy.selectableFields, { extra: [], style: 'meta' });
  });
});
