import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { rfc3339, rfc3339Micro, timeParseError } from './go-time.js';

const t3339 = `as "${rfc3339}"`;
const tMicro = `as "${rfc3339Micro}"`;

describe('time.Parse(time.RFC3339) errors (metav1.Time)', () => {
  const cases: [string, string | undefined][] = [
    ['2024-01-02T03:04:05Z', undefined],
    ['2024-01-02T03:04:05+05:30', undefined],
    ['2024-01-02T03:04:05.123456789Z', undefined],
    ['2024-02-29T00:00:00Z', undefined],
    ['2024-01-02T3:04:05Z', undefined],
    ['abc', `parsing time "abc" ${t3339}: cannot parse "abc" as "2006"`],
    ['', `parsing time "" ${t3339}: cannot parse "" as "2006"`],
    ['2024/01/02', `parsing time "2024/01/02" ${t3339}: cannot parse "/01/02" as "-"`],
    ['2024-01-02', `parsing time "2024-01-02" ${t3339}: cannot parse "" as "T"`],
    ['2024-1-02T03:04:05Z', `parsing time "2024-1-02T03:04:05Z" ${t3339}: cannot parse "1-02T03:04:05Z" as "01"`],
    ['2024-13-02T03:04:05Z', 'parsing time "2024-13-02T03:04:05Z": month out of range'],
    ['2024-01-02T24:04:05Z', 'parsing time "2024-01-02T24:04:05Z": hour out of range'],
    ['2024-01-02T03:60:05Z', 'parsing time "2024-01-02T03:60:05Z": minute out of range'],
    ['2024-01-02T03:04:60Z', 'parsing time "2024-01-02T03:04:60Z": second out of range'],
    ['2023-02-29T00:00:00Z', 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    ['2024-04-31T00:00:00Z', 'parsing time "2024-04-31T00:00:00Z": day out of range'],
    ['2024-01-02T03:04:05', `parsing time "2024-01-02T03:04:05" ${t3339}: cannot parse "" as "Z07:00"`],
    ['2024-01-02T03:04:05+0530', `parsing time "2024-01-02T03:04:05+0530" ${t3339}: cannot parse "+0530" as "Z07:00"`],
    ['2024-01-02T03:04:05+25:00', 'parsing time "2024-01-02T03:04:05+25:00": time zone offset hour out of range'],
    ['2024-01-02T03:04:05Zjunk', 'parsing time "2024-01-02T03:04:05Zjunk": extra text: "junk"'],
    ['2024-01-02 03:04:05Z', `parsing time "2024-01-02 03:04:05Z" ${t3339}: cannot parse " 03:04:05Z" as "T"`],
    ['20x4-01-02T03:04:05Z', `parsing time "20x4-01-02T03:04:05Z" ${t3339}: cannot parse "20x4-01-02T03:04:05Z" as "2006"`],
    ['zeit "ü"', `parsing time "zeit \\"\\xc3\\xbc\\"" ${t3339}: cannot parse "zeit \\"\\xc3\\xbc\\"" as "2006"`],
  ];
  for (const [value, want] of cases) {
    test(JSON.stringify(value), () => assert.equal(timeParseError(value, rfc3339), want));
  }
});

describe('time.Parse(metav1.RFC3339Micro) errors (metav1.MicroTime)', () => {
  const cases: [string, string | undefined][] = [
    ['2024-01-02T03:04:05.123456Z', undefined],
    ['2024-01-02T03:04:05.000000+01:00', undefined],
    ['2024-01-02T03:04:05Z', `parsing time "2024-01-02T03:04:05Z" ${tMicro}: cannot parse "Z" as ".000000"`],
    ['2024-01-02T03:04:05.123Z', `parsing time "2024-01-02T03:04:05.123Z" ${tMicro}: cannot parse ".123Z" as ".000000"`],
    ['2024-01-02T03:04:05.1234567Z', `parsing time "2024-01-02T03:04:05.1234567Z" ${tMicro}: cannot parse "7Z" as "Z07:00"`],
    ['2024-01-02T03:04:05.12a456Z', `parsing time "2024-01-02T03:04:05.12a456Z" ${tMicro}: cannot parse ".12a456Z" as ".000000"`],
  ];
  for (const [value, want] of cases) {
    test(JSON.stringify(value), () => assert.equal(timeParseError(value, rfc3339Micro), want));
  }
});

test('canonical UTC times: valid dates parse, impossible ones keep Go’s range errors', () => {
  for (const v of ['2024-02-29T23:59:59Z', '2000-02-29T00:00:00Z', '0000-02-29T12:00:00Z', '2023-12-31T00:00:00Z', '2023-04-30T10:20:30Z']) assert.equal(timeParseError(v, rfc3339), undefined, v);
  assert.equal(timeParseError('2024-02-29T23:59:59.123456Z', rfc3339Micro), undefined);
  assert.equal(timeParseError('2023-02-29T00:00:00Z', rfc3339), 'parsing time "2023-02-29T00:00:00Z": day out of range');
  assert.equal(timeParseError('1900-02-29T00:00:00Z', rfc3339), 'parsing time "1900-02-29T00:00:00Z": day out of range');
  assert.equal(timeParseError('2023-04-31T00:00:00Z', rfc3339), 'parsing time "2023-04-31T00:00:00Z": day out of range');
  assert.equal(timeParseError('2023-13-01T00:00:00Z', rfc3339), 'parsing time "2023-13-01T00:00:00Z": month out of range');
  assert.equal(timeParseError('2023-01-01T00:00:00.12345Z', rfc3339Micro) !== undefined, true);
});
