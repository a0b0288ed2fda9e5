import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { parseQuantityError, quantityFormatError, quantityNumericError, quantitySuffixError, quantityText } from './quantity-parse.js';

describe('resource.ParseQuantity', () => {
  const valid = ['0', '1', '100m', '1.5', '0.5Gi', '128Mi', '1Ki', '2E', '1e3', '1E3', '-1', '+1', '.5', '1.', '.', '+', '12e-3', '5n', '1u', '3k', '4M', '5G', '6T', '7P', '1Ei', '123456789012345678901234567890'];
  for (const q of valid) test(`accepts ${JSON.stringify(q)}`, () => assert.equal(parseQuantityError(q), undefined));

  const invalid: [string, string][] = [
    ['', quantityFormatError],
    ['abc', quantityFormatError],
    ['1 Gi', quantityFormatError],
    ['1Gi2x', quantityFormatError],
    ['--1', quantitySuffixError],
    ['1e', quantitySuffixError],
    ['1ki', quantitySuffixError],
    ['1Gb', quantityFormatError],
    ['1GG', quantitySuffixError],
    ['1m5', quantitySuffixError],
    ['1e99999999999999999999', quantitySuffixError],
    ['-.e-20', quantityNumericError],
  ];
  for (const [q, want] of invalid) test(`rejects ${JSON.stringify(q)}`, () => assert.equal(parseQuantityError(q), want));

  test('the format error carries kube\'s regular expression', () => {
    assert.equal(quantityFormatError, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  });
});

describe('the raw text Quantity.UnmarshalJSON parses', () => {
  test('strings are trimmed, numbers are their literal, other JSON fails the scan', () => {
    assert.equal(quantityText(' 1Gi '), '1Gi');
    assert.equal(quantityText(0.5), '0.5');
    assert.equal(quantityText(3000000000), '3000000000');
    assert.equal(parseQuantityError(quantityText(true)), quantityFormatError);
    assert.equal(parseQuantityError(quantityText({ a: 1 })), quantityFormatError);
    assert.equal(parseQuantityError(quantityText([1])), quantityFormatError);
  });

  test('escapes in a string stay as the raw JSON had them', () => {
    assert.equal(quantityText('1\n'), '1\\n');
    assert.equal(parseQuantityError(quantityText('1\n')), quantityFormatError);
  });
});
