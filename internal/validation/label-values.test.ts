import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  isValidPathSegmentPrefix,
  maxLenError,
  regexError,
  utf8Length,
} from './label-values.js';

const qualifiedNameRegexText =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueText =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const dns1123LabelText =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const dns1123SubdomainText =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const dns1035LabelText =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe('message helpers', () => {
  test('regexError keeps kube spacing', () => {
    assert.equal(regexError('m', 'r'), "m (regex used for validation is 'r')");
    assert.equal(regexError('m', 'r', 'a'), "m (e.g. 'a', regex used for validation is 'r')");
    assert.equal(regexError('m', 'r', 'a', 'b', 'c'), "m (e.g. 'a',  or 'b',  or 'c', regex used for validation is 'r')");
  });

  test('lengths are UTF-8 bytes', () => {
    assert.equal(utf8Length('abc'), 3);
    assert.equal(utf8Length('é'), 2);
    assert.equal(utf8Length('€'), 3);
    assert.equal(utf8Length('\u{1F600}'), 4);
    assert.equal(maxLenError(63), 'must be no more than 63 characters');
  });
});

describe('isQualifiedName', () => {
  for (const valid of ['simple', 'now-with-dashes', '1-starts-with-num', '1234', 'simple/simple', 'now-with-dashes/simple', 'example.com/Upper_Case.9', 'a'.repeat(63), `${'a'.repeat(253)}/a`]) {
    test(`valid ${valid.length > 40 ? `${valid.slice(0, 10)}…(${valid.length})` : valid}`, () => assert.deepEqual(isQualifiedName(valid), []));
  }
  const cases: [string, string[]][] = [
    ['', [`name part must be non-empty`, `name part ${qualifiedNameRegexText}`]],
    ['-x', [`name part ${qualifiedNameRegexText}`]],
    ['a b', [`name part ${qualifiedNameRegexText}`]],
    ['a'.repeat(64), ['name part must be no more than 63 characters']],
    ['/a', ['prefix part must be non-empty']],
    ['a/', ['name part must be non-empty', `name part ${qualifiedNameRegexText}`]],
    ['Example.com/a', [`prefix part ${dns1123SubdomainText}`]],
    [`${'a'.repeat(254)}/a`, ['prefix part must be no more than 253 characters']],
    [
      'a/b/c',
      [
        `a qualified name ${qualifiedNameRegexText} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
    ],
    ['é'.repeat(32), ['name part must be no more than 63 characters', `name part ${qualifiedNameRegexText}`]],
  ];
  for (const [value, errs] of cases) {
    test(`invalid ${JSON.stringify(value.length > 40 ? `${value.slice(0, 10)}…(${value.length})` : value)}`, () => assert.deepEqual(isQualifiedName(value), errs));
  }
});

describe('isValidLabelValue', () => {
  for (const valid of ['', 'simple', 'now-with-dashes', '1-starts-with-num', 'end-with-num-1', '1234', 'Upper.Case_9', 'a'.repeat(63)]) {
    test(`valid ${JSON.stringify(valid)}`, () => assert.deepEqual(isValidLabelValue(valid), []));
  }
  const cases: [string, string[]][] = [
    ['-x', [labelValueText]],
    ['x_', [labelValueText]],
    ['a b', [labelValueText]],
    ['a/b', [labelValueText]],
    ['a'.repeat(64), ['must be no more than 63 characters']],
    ['-'.repeat(64), ['must be no more than 63 characters', labelValueText]],
  ];
  for (const [value, errs] of cases) {
    test(`invalid ${JSON.stringify(value)}`, () => assert.deepEqual(isValidLabelValue(value), errs));
  }
});

describe('DNS names', () => {
  test('isDNS1123Label', () => {
    for (const valid of ['a', 'ab', 'a-b', '0', '1-2', 'a'.repeat(63)]) assert.deepEqual(isDNS1123Label(valid), [], valid);
    assert.deepEqual(isDNS1123Label(''), [dns1123LabelText]);
    assert.deepEqual(isDNS1123Label('A'), [dns1123LabelText]);
    assert.deepEqual(isDNS1123Label('a-'), [dns1123LabelText]);
    assert.deepEqual(isDNS1123Label('a_b'), [dns1123LabelText]);
    assert.deepEqual(isDNS1123Label('a.b'), ['must not contain dots']);
    assert.deepEqual(isDNS1123Label('a'.repeat(64)), ['must be no more than 63 characters']);
    assert.deepEqual(isDNS1123Label(`${'a'.repeat(60)}.bcd`), ['must be no more than 63 characters', 'must not contain dots']);
  });

  test('isDNS1123Subdomain', () => {
    for (const valid of ['a', 'a.b', 'a-b.c-d', '1.2.3.4', 'a'.repeat(253)]) assert.deepEqual(isDNS1123Subdomain(valid), [], valid);
    assert.deepEqual(isDNS1123Subdomain(''), [dns1123SubdomainText]);
    assert.deepEqual(isDNS1123Subdomain('a..b'), [dns1123SubdomainText]);
    assert.deepEqual(isDNS1123Subdomain('a.'), [dns1123SubdomainText]);
    assert.deepEqual(isDNS1123Subdomain('A.b'), [dns1123SubdomainText]);
    assert.deepEqual(isDNS1123Subdomain('a'.repeat(254)), ['must be no more than 253 characters']);
  });

  test('isDNS1035Label', () => {
    for (const valid of ['a', 'ab', 'a-1', 'a'.repeat(63)]) assert.deepEqual(isDNS1035Label(valid), [], valid);
    assert.deepEqual(isDNS1035Label('1a'), [dns1035LabelText]);
    assert.deepEqual(isDNS1035Label('a.b'), [dns1035LabelText]);
    assert.deepEqual(isDNS1035Label(''), [dns1035LabelText]);
    assert.deepEqual(isDNS1035Label(`a${'b'.repeat(63)}`), ['must be no more than 63 characters']);
  });
});

describe('path segment names', () => {
  test('isValidPathSegmentName', () => {
    assert.deepEqual(isValidPathSegmentName('ok.name'), []);
    assert.deepEqual(isValidPathSegmentName('...'), []);
    assert.deepEqual(isValidPathSegmentName('.'), ["may not be '.'"]);
    assert.deepEqual(isValidPathSegmentName('..'), ["may not be '..'"]);
    assert.deepEqual(isValidPathSegmentName('a/b%c'), ["may not contain '/'", "may not contain '%'"]);
  });

  test('isValidPathSegmentPrefix checks only substrings', () => {
    assert.deepEqual(isValidPathSegmentPrefix('.'), []);
    assert.deepEqual(isValidPathSegmentPrefix('a%'), ["may not contain '%'"]);
  });
});
