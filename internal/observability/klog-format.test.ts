import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Caller } from './caller.js';
import { GoDuration } from './go-text.js';
import { formatJson, formatText, klogHeader, type LogRecord } from './klog-format.js';

// klog writes local time: pin the zone so the expected headers hold anywhere.
process.env.TZ = 'UTC';

const caller: Caller = { file: 'httplog.ts:42', short: 'filters/httplog.ts:42', module: 'httplog' };
const at = Date.UTC(2024, 10, 25, 10, 0, 0, 123) + 0.456; // 2024-11-25T10:00:00.123456Z
const pid = String(process.pid).padStart(7, ' ');

function record(r: Partial<LogRecord>): LogRecord {
  return { severity: 'I', level: 0, message: 'msg', structured: true, caller, timeMs: at, ...r };
}

describe('klog text format', () => {
  it('header: severity, MMDD, time with microseconds, pid in 7 columns, file:line and "] "', () => {
    assert.equal(klogHeader('I', at, 'httplog.ts:42'), `I1125 10:00:00.123456 ${pid} httplog.ts:42] `);
    assert.equal(klogHeader('E', Date.UTC(2024, 0, 2, 3, 4, 5, 6), 'x.ts:1'), `E0102 03:04:05.006000 ${pid} x.ts:1] `);
    assert.equal(pid.length, 7);
  });

  it('an unstructured record is its text, newline-terminated', () => {
    assert.equal(formatText(record({ structured: false, message: 'Serving securely on 0.0.0.0:6443' })), `I1125 10:00:00.123456 ${pid} httplog.ts:42] Serving securely on 0.0.0.0:6443\n`);
    assert.equal(formatText(record({ structured: false, message: 'two\nlines\n' })).endsWith('] two\nlines\n'), true);
  });

  it('a structured record quotes its message and formats each value as klog does', () => {
    const line = formatText(
      record({
        severity: 'W',
        message: 'HTTP "x"',
        pairs: {
          verb: 'GET',
          URI: '/api/v1/pods?limit=500',
          latency: new GoDuration(1_234_567),
          resp: 200,
          ok: true,
          none: null,
          err2: new Error('bad "thing"'),
          obj: { a: 1, b: '<tag>' },
          list: ['x', 2],
          tab: 'a\tb',
        },
      }),
    );
    assert.equal(
      line,
      `W1125 10:00:00.123456 ${pid} httplog.ts:42] "HTTP \\"x\\"" verb="GET" URI="/api/v1/pods?limit=500" latency="1.234567ms" resp=200 ok=true none=null err2="bad \\"thing\\"" obj={"a":1,"b":"\\u003ctag\\u003e"} list=["x",2] tab="a\\tb"\n`,
    );
  });

  it('ErrorS puts err first; a multi-line value is a tab-indented block', () => {
    const line = formatText(record({ severity: 'E', message: 'failed', err: new Error('boom'), pairs: { stack: 'line 1\nline 2', trailing: 'a\n' } }));
    assert.equal(line, `E1125 10:00:00.123456 ${pid} httplog.ts:42] "failed" err="boom" stack=<\n\tline 1\n\tline 2\n > trailing=<\n\ta\n >\n`);
    assert.equal(formatText(record({ severity: 'E', message: 'm', err: null })), `E1125 10:00:00.123456 ${pid} httplog.ts:42] "m"\n`);
  });

  it('an unrepresentable number reads as Go JSON error text', () => {
    assert.match(formatText(record({ pairs: { n: Number.NaN } })), / n="<internal error: json: unsupported value: NaN>"\n$/);
  });
});

describe('kube JSON format', () => {
  it('ts, caller, msg, v, then the pairs', () => {
    const line = formatJson(record({ level: 3, message: 'HTTP', pairs: { verb: 'GET', latency: new GoDuration(1500), resp: 200 } }));
    assert.equal(line, `{"ts":${at},"caller":"filters/httplog.ts:42","msg":"HTTP","v":3,"verb":"GET","latency":"1.5µs","resp":200}\n`);
    assert.deepEqual(Object.keys(JSON.parse(line)), ['ts', 'caller', 'msg', 'v', 'verb', 'latency', 'resp']);
  });

  it('errors carry no "v" and end with "err"', () => {
    const line = formatJson(record({ severity: 'E', message: 'oops', err: new Error('bad'), pairs: { k: 'v' } }));
    assert.equal(line, `{"ts":${at},"caller":"filters/httplog.ts:42","msg":"oops","k":"v","err":"bad"}\n`);
  });
});
