import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { strictDecodingErrorMessage, unknownFieldMessage, unknownFieldMessages } from './unknown-fields.js';

describe('unknown field messages', () => {
  test('one warning per field (fieldValidation=Warn)', () => {
    assert.equal(unknownFieldMessage('spec.foo'), 'unknown field "spec.foo"');
    assert.equal(unknownFieldMessage('spec.template.spec.containers[0].bar'), 'unknown field "spec.template.spec.containers[0].bar"');
  });

  test('paths are quoted as Go quotes them', () => {
    assert.equal(unknownFieldMessage('metadata.a"b'), 'unknown field "metadata.a\\"b"');
  });

  test('the strict decoding error (fieldValidation=Strict)', () => {
    assert.equal(strictDecodingErrorMessage(['spec.foo', 'spec.bar']), 'strict decoding error: unknown field "spec.foo", unknown field "spec.bar"');
  });

  test('repeats are dropped and at most 100 are kept, as sigs.k8s.io/json does', () => {
    const paths = Array.from({ length: 150 }, (_, i) => `f${i}`);
    assert.equal(unknownFieldMessages(['a', 'a', 'b']).length, 2);
    const kept = unknownFieldMessages(paths);
    assert.equal(kept.length, 100);
    assert.equal(kept[99], 'unknown field "f99"');
  });
});
