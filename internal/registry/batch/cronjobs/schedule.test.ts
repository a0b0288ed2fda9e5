import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cronScheduleError } from './schedule.js';

describe('cron schedule syntax (robfig/cron ParseStandard)', () => {
  const cases: Array<[string, string | undefined]> = [
    ['* * * * *', undefined],
    ['*/15 0-6,18 1 jan-mar mon-fri', undefined],
    ['0 0 ? * SUN', undefined],
    ['@hourly', undefined],
    ['@every 1h30m', undefined],
    ['', 'empty spec string'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* 5-1 * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@every 1y', 'failed to parse duration @every 1y: time: invalid duration "1y"'],
  ];
  for (const [spec, want] of cases) {
    it(JSON.stringify(spec), () => assert.equal(cronScheduleError(spec), want));
  }
});
