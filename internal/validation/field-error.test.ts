import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  GoNilSlice,
  aggregateMessages,
  childPath,
  duplicate,
  fieldErrorBody,
  fieldErrorCause,
  fieldErrorMessage,
  fieldErrorsMessage,
  forbidden,
  goQuote,
  indexPath,
  internalError,
  invalid,
  keyPath,
  notFound,
  notSupported,
  required,
  statusCauseReason,
  tooLong,
  tooMany,
  typeInvalid,
} from './field-error.js';

describe('field paths', () => {
  test('children, indexes and keys render as kube paths', () => {
    assert.equal(childPath(undefined, 'spec'), 'spec');
    assert.equal(childPath('spec', 'template', 'metadata'), 'spec.template.metadata');
    assert.equal(indexPath(childPath('spec', 'containers'), 2), 'spec.containers[2]');
    assert.equal(keyPath(childPath('metadata', 'labels'), 'a/b'), 'metadata.labels[a/b]');
    assert.equal(indexPath(undefined, 0), '[0]');
  });

  test('a nil path renders as <nil>', () => {
    assert.equal(fieldErrorMessage(invalid(undefined, 'x', 'bad')), '<nil>: Invalid value: "x": bad');
  });
});

describe('field error texts', () => {
  const cases: [ReturnType<typeof invalid>, string][] = [
    [invalid('metadata.labels', 'a b', 'name part must consist of ...'), 'metadata.labels: Invalid value: "a b": name part must consist of ...'],
    [required('spec.foo', ''), 'spec.foo: Required value'],
    [required('spec.foo', 'must be set'), 'spec.foo: Required value: must be set'],
    [forbidden('spec.foo', 'may not be set'), 'spec.foo: Forbidden: may not be set'],
    [notSupported('x', 'q', ['a', 'b']), 'x: Unsupported value: "q": supported values: "a", "b"'],
    [notSupported('x', 'q', []), 'x: Unsupported value: "q"'],
    [tooLong('x', 63), 'x: Too long: may not be more than 63 bytes'],
    [tooLong('x', -1), 'x: Too long: value is too long'],
    [tooMany('x', 5, 3), 'x: Too many: 5: must have at most 3 items'],
    [tooMany('x', -1, 3), 'x: Too many: must have at most 3 items'],
    [duplicate('spec.ports[1].name', 'http'), 'spec.ports[1].name: Duplicate value: "http"'],
    [notFound('spec.x', 'y'), 'spec.x: Not found: "y"'],
    [typeInvalid('spec.x', 'y', 'must be an integer'), 'spec.x: Invalid value: "y": must be an integer'],
    [internalError('spec.x', new Error('boom')), 'spec.x: Internal error: boom'],
    [invalid('n', 42, 'd'), 'n: Invalid value: 42: d'],
    [invalid('n', 1.5, 'd'), 'n: Invalid value: 1.5: d'],
    [invalid('n', 2500000.5, 'd'), 'n: Invalid value: 2.5000005e+06: d'],
    [invalid('n', 0.00001, 'd'), 'n: Invalid value: 1e-05: d'],
    [invalid('n', true, 'd'), 'n: Invalid value: true: d'],
    [invalid('n', null, 'd'), 'n: Invalid value: null: d'],
    [invalid('n', [], 'd'), 'n: Invalid value: []string{}: d'],
    [invalid('n', ['a', 'b"c'], 'd'), 'n: Invalid value: []string{"a", "b\\"c"}: d'],
    [invalid('n', new GoNilSlice(), 'd'), 'n: Invalid value: []string(nil): d'],
    [invalid('n', 'x', ''), 'n: Invalid value: "x"'],
  ];
  for (const [err, text] of cases) {
    test(text, () => assert.equal(fieldErrorMessage(err), text));
  }

  test('cause reasons are the error types', () => {
    assert.equal(statusCauseReason('FieldValueTooMany'), 'FieldValueTooMany');
    assert.deepEqual(fieldErrorCause(required('spec.foo', 'x')), {
      reason: 'FieldValueRequired',
      field: 'spec.foo',
      message: 'Required value: x',
      text: 'spec.foo: Required value: x',
    });
    assert.equal(fieldErrorBody(invalid('a', 'b', 'c')), 'Invalid value: "b": c');
  });
});

describe('aggregation', () => {
  test('one message stays bare, several are bracketed, duplicates drop', () => {
    assert.equal(aggregateMessages([]), '');
    assert.equal(aggregateMessages(['a']), 'a');
    assert.equal(aggregateMessages(['a', 'a']), 'a');
    assert.equal(aggregateMessages(['a', 'b', 'a']), '[a, b]');
    assert.equal(fieldErrorsMessage([required('x', ''), forbidden('y', 'no')]), '[x: Required value, y: Forbidden: no]');
  });
});

describe('goQuote', () => {
  const cases: [string, string][] = [
    ['plain', '"plain"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['\n\t\r\u0007\u0008\u000b\u000c', '"\\n\\t\\r\\a\\b\\v\\f"'],
    ['\u0000\u001f\u007f', '"\\x00\\x1f\\x7f"'],
    ['é€\u{1F600}', '"é€\u{1F600}"'],
    ['\u0085\u00a0\u00ad\u200b', '"\\u0085\\u00a0\\u00ad\\u200b"'],
    ['\u{E0001}', '"\\U000e0001"'],
    ['\ud800', '"\ufffd"'],
  ];
  for (const [input, quoted] of cases) {
    test(JSON.stringify(input), () => assert.equal(goQuote(input), quoted));
  }
});
