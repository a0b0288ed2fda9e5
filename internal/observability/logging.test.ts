import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createLogger, type LoggerOptions } from './logging.js';

const source = readFileSync(fileURLToPath(new URL('../../../internal/observability/logging.test.ts', import.meta.url)), 'utf8').split('\n');
/** The 1-based line of this file's source that contains marker. */
const lineOf = (marker: string): number => source.findIndex((l) => l.includes(marker) && !l.includes('lineOf(')) + 1;

function capture(options: LoggerOptions = {}) {
  const chunks: string[] = [];
  const log = createLogger({ writer: (c) => chunks.push(c), ...options });
  const lines = (): string[] => {
    log.flush();
    return chunks.join('').split('\n').filter((l) => l !== '');
  };
  return { log, chunks, lines };
}

describe('createLogger', () => {
  it('split stream: errors to the error writer at once, info and warnings to the info writer, buffered up to the size', () => {
    const errs: string[] = [];
    const infos: string[] = [];
    const log = createLogger({ splitStream: { infoBufferBytes: 1_000_000, infoWriter: (c) => infos.push(c), errorWriter: (c) => errs.push(c) } });
    log.info('hello');
    log.warn('careful');
    log.error('broken');
    assert.equal(errs.length, 1);
    assert.match(errs[0] ?? '', /^E.*\] broken\n$/);
    assert.deepEqual(infos, []);
    log.flush();
    assert.equal(infos.length, 1);
    assert.match(infos[0] ?? '', /^I.*\] hello\nW.*\] careful\n$/);
    const unbuffered: string[] = [];
    const log0 = createLogger({ splitStream: { infoBufferBytes: 0, infoWriter: (c) => unbuffered.push(c), errorWriter: () => undefined } });
    log0.info('now');
    assert.equal(unbuffered.length, 1);
  });

  it('writes klog lines with the TypeScript caller file:line', () => {
    const { log, lines } = capture();
    log.info('Serving securely'); // caller-marker-1
    log.warn('careful', { n: 1 }); // caller-marker-2
    const [first, second] = lines();
    assert.match(first ?? '', new RegExp(`^I\\d{4} \\d\\d:\\d\\d:\\d\\d\\.\\d{6} {0,6}${process.pid} logging\\.test\\.ts:${lineOf('caller-marker-1')}\\] Serving securely$`));
    assert.match(second ?? '', new RegExp(` logging\\.test\\.ts:${lineOf('caller-marker-2')}\\] "careful" n=1$`));
    assert.equal(second?.[0], 'W');
  });

  it('-v gates v(n) before any formatting; info, warnings and errors are always written', () => {
    const { log, lines } = capture({ verbosity: 2 });
    let formatted = 0;
    const costly = { toJSON: () => (formatted++, 'x') };
    log.v(3, 'too detailed', { costly });
    assert.equal(formatted, 0, 'a gated record is never formatted');
    assert.equal(log.enabled(3), false);
    assert.equal(log.enabled(2), true);
    log.v(2, 'detail');
    log.error('bad');
    log.errorS(new Error('boom'), 'failed', { costly });
    assert.equal(formatted, 1);
    const out = lines();
    assert.equal(out.length, 3);
    assert.match(out[0] ?? '', /\] detail$/);
    assert.match(out[1] ?? '', /^E.*\] bad$/);
    assert.match(out[2] ?? '', /^E.*\] "failed" err="boom" costly="x"$/);
  });

  it('setVerbosity changes -v at run time', () => {
    const { log, lines } = capture({ verbosity: 0 });
    log.v(3, 'hidden');
    log.setVerbosity(3);
    assert.equal(log.verbosity, 3);
    log.v(3, 'shown');
    assert.deepEqual(lines().map((l) => l.replace(/^.*\] /, '')), ['shown']);
  });

  it('--vmodule raises the level of the calling file only', () => {
    const on = capture({ verbosity: 0, vmodule: [{ pattern: 'logging.te*', level: 4 }] });
    on.log.v(4, 'from this file');
    on.log.v(5, 'above its level');
    assert.equal(on.log.enabled(4), true);
    assert.deepEqual(on.lines().map((l) => l.replace(/^.*\] /, '')), ['from this file']);
    const off = capture({ verbosity: 0, vmodule: [{ pattern: 'other', level: 9 }] });
    off.log.v(1, 'not this file');
    assert.equal(off.log.enabled(1), false);
    assert.deepEqual(off.lines(), []);
  });

  it('buffers until flush, the flush interval, or exit', async () => {
    const { log, chunks } = capture({ flushFrequencyMs: 30 });
    log.info('one');
    log.info('two');
    assert.equal(chunks.length, 0, 'nothing is written per line');
    await new Promise((r) => setTimeout(r, 120));
    assert.equal(chunks.length, 1, 'the interval wrote both lines at once');
    assert.match(chunks[0] ?? '', /\] one\n.*\] two\n$/);
  });

  it('writes kube JSON with --logging-format=json', () => {
    const { log, lines } = capture({ format: 'json', verbosity: 2 });
    log.v(2, 'HTTP', { verb: 'GET', resp: 200 }); // json-marker
    log.errorS(new Error('bad'), 'oops');
    const [info, error] = lines().map((l) => JSON.parse(l));
    assert.equal(typeof info.ts, 'number');
    assert.deepEqual({ ...info, ts: 0 }, { ts: 0, caller: `observability/logging.test.ts:${lineOf('json-marker')}`, msg: 'HTTP', v: 2, verb: 'GET', resp: 200 });
    assert.deepEqual(Object.keys(error), ['ts', 'caller', 'msg', 'err']);
  });

  it('a silent logger writes nothing and reports every level off', () => {
    const chunks: string[] = [];
    const log = createLogger({ writer: (c) => chunks.push(c), silent: true, verbosity: 9 });
    log.error('x');
    log.flush();
    assert.equal(log.enabled(0), false);
    assert.deepEqual(chunks, []);
  });
});
