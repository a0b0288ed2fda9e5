import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { formatCheckers } from './formats.js';
import { translateRe2 } from './pattern.js';

const table: ReadonlyArray<readonly [string, readonly string[], readonly string[]]> = [
  ['bsonobjectid', ['507f1f77bcf86cd799439011'], ['507f1f77bcf86cd79943901', 'zz7f1f77bcf86cd799439011']],
  ['uri', ['https://example.com/a?b=c', '/just/a/path'], ['example.com', 'mailto:a@b.c', '']],
  ['email', ['a@b.c', 'Name <a@b.c>'], ['a.b.c', 'a@@b']],
  ['hostname', ['example.com', 'a', 'my-host.example.org'], ['-bad', 'a..b', 'x'.repeat(64)]],
  ['ipv4', ['10.0.0.1', '010.0.0.1'], ['10.0.0.256', '::1', '10.0.0']],
  ['ipv6', ['::1', '2001:db8::1', '::ffff:10.0.0.1'], ['10.0.0.1', '1:2:3:4:5:6:7:8:9', 'g::1']],
  ['cidr', ['10.0.0.0/8', '2001:db8::/32'], ['10.0.0.0/33', '10.0.0.0', '::/129']],
  ['mac', ['00:1a:2b:3c:4d:5e', '00-1A-2B-3C-4D-5E', '001a.2b3c.4d5e'], ['00:1a:2b:3c:4d', '00:1a-2b:3c:4d:5e']],
  ['uuid', ['123e4567-e89b-12d3-a456-426614174000', '123E4567E89B12D3A456426614174000'], ['123e4567-e89b-12d3-a456-42661417400']],
  ['uuid3', ['a3bb189e-8bf9-3888-9912-ace4e6543002'], ['a3bb189e-8bf9-4888-9912-ace4e6543002']],
  ['uuid4', ['a3bb189e-8bf9-4888-9912-ace4e6543002'], ['a3bb189e-8bf9-4888-c912-ace4e6543002']],
  ['uuid5', ['a3bb189e-8bf9-5888-9912-ace4e6543002'], ['a3bb189e-8bf9-4888-9912-ace4e6543002']],
  ['isbn10', ['0321751043', '0-321-75104-3'], ['0321751044']],
  ['isbn13', ['978-0321751041'], ['978-0321751042']],
  ['isbn', ['0321751043', '9780321751041'], ['123']],
  ['creditcard', ['4111 1111 1111 1111'], ['4111 1111 1111 1112']],
  ['ssn', ['123-45-6789', '123456789'], ['12-345-6789']],
  ['hexcolor', ['#fff', 'A0B1C2'], ['#ffff']],
  ['rgbcolor', ['rgb(255, 0, 10)'], ['rgb(256,0,0)']],
  ['byte', ['aGVsbG8=', ''], ['aGVsbG8', '!!!!']],
  ['password', ['anything'], []],
  ['date', ['2024-02-29'], ['2023-02-29', '2024-13-01', '2024-1-01']],
  ['datetime', ['2024-01-02T03:04:05Z', '2024-01-02t03:04:05.123+01:00'], ['2024-01-02T24:00:00Z', '2024-01-02 03:04:05Z', '2024-01-02T03:04:05']],
  ['date-time', ['2024-01-02T03:04:05Z'], ['yesterday']],
  ['duration', ['1h30m', '-1.5s', '3 days', '2 weeks'], ['soon', '1x']],
];

describe('formatCheckers', () => {
  for (const [name, valid, invalid] of table) {
    test(name, () => {
      const check = formatCheckers.get(name);
      assert.ok(check, `format ${name} registered`);
      for (const v of valid) assert.equal(check(v), true, `${name} accepts ${JSON.stringify(v)}`);
      for (const v of invalid) assert.equal(check(v), false, `${name} refuses ${JSON.stringify(v)}`);
    });
  }

  test('int32, int64, float, double and unknown names are not string formats', () => {
    for (const n of ['int32', 'int64', 'float', 'double', 'k8s-short-name']) assert.equal(formatCheckers.has(n), false);
  });
});

describe('translateRe2', () => {
  const table2: ReadonlyArray<readonly [string, string, string]> = [
    ['(?i)^abc$', '^abc$', 'i'],
    ['\\Aabc\\z', '^abc$', ''],
    ['^[[:alpha:]]+$', '^[A-Za-z]+$', ''],
    ['\\pL+', '\\p{L}+', ''],
    ['(?P<x>a)', '(?<x>a)', ''],
    ['\\Qa.b\\E', 'a\\.b', ''],
    ['a\\-b\\#', 'a-b#', ''],
    ['a{x}', 'a\\{x\\}', ''],
    ['a{2,3}', 'a{2,3}', ''],
  ];
  for (const [re2, source, flags] of table2) {
    test(re2, () => assert.deepEqual(translateRe2(re2), { source, flags }));
  }
});
