import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';
import { defaultLoggingOptions } from './logging.js';

const run = (...args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'test');
function logging(...args: string[]) {
  const r = run(...args);
  assert.equal(r.kind, 'run', r.kind === 'exit' ? r.stderr : '');
  return r.kind === 'run' ? r.options : undefined;
}
function refused(...args: string[]): string {
  const r = run(...args);
  assert.equal(r.kind, 'exit');
  return r.kind === 'exit' ? (r.stderr ?? '') : '';
}

describe('logging flags', () => {
  it('kube defaults: -v 0, text, 5s flushes, no vmodule', () => {
    const o = logging();
    assert.deepEqual(o?.logging, defaultLoggingOptions);
    assert.equal(o?.verbosity, 0);
  });

  it('-v / --v set the verbosity (ServerOptions.verbosity too)', () => {
    assert.equal(logging('-v', '4')?.logging?.verbosity, 4);
    assert.equal(logging('--v=3')?.verbosity, 3);
    assert.equal(refused('-v=-1'), 'Error: invalid argument "-1" for "-v, --v" flag: strconv.ParseUint: parsing "-1": invalid syntax\n');
    assert.equal(refused('--v=2147483648'), 'Error: invalid argument "2147483648" for "-v, --v" flag: strconv.ParseUint: parsing "2147483648": value out of range\n');
  });

  it('--vmodule: pattern=N entries, repeated occurrences appended', () => {
    assert.deepEqual(logging('--vmodule=httplog=4,watch*=2,', '--vmodule', 'x=0')?.logging?.vmodule, [
      { pattern: 'httplog', level: 4 },
      { pattern: 'watch*', level: 2 },
      { pattern: 'x', level: 0 },
    ]);
    assert.equal(refused('--vmodule=httplog'), 'Error: invalid argument "httplog" for "--vmodule" flag: "httplog" does not have the pattern=N format\n');
    assert.equal(refused('--vmodule=a=b'), 'Error: invalid argument "a=b" for "--vmodule" flag: parsing verbosity in "a=b": strconv.ParseUint: parsing "b": invalid syntax\n');
  });

  it('--logging-format: text and json (LoggingBetaOptions is on by default); vmodule only with text', () => {
    assert.equal(logging('--logging-format=json')?.logging?.format, 'json');
    assert.equal(refused('--logging-format=xml'), 'Error: format: Invalid value: "xml": Unsupported log format\n');
    assert.equal(
      refused('--logging-format=json', '--vmodule=a=1'),
      `Error: [format: Invalid value: "json": Non-default format doesn't honor flag: vmodule, vmodule: Forbidden: Only supported for text log format]\n`,
    );
  });

  it('--log-flush-frequency: a positive Go duration', () => {
    assert.equal(logging('--log-flush-frequency=250ms')?.logging?.flushFrequencyMs, 250);
    assert.match(refused('--log-flush-frequency=0'), /--log-flush-frequency 0s: the interval between log flushes must be greater than 0/);
    assert.match(refused('--log-flush-frequency=5'), /time: missing unit in duration "5"/);
  });

  it('the [Alpha] split-stream and info-buffer flags need LoggingAlphaOptions, which is off', () => {
    assert.ok(logging('--log-text-split-stream=false', '--log-json-info-buffer-size=0', '--log-text-info-buffer-size=0Ki'));
    assert.equal(refused('--log-text-split-stream'), 'Error: options.text.splitStream: Forbidden: Feature LoggingAlphaOptions is disabled\n');
    assert.equal(
      refused('--log-json-split-stream=true', '--log-json-info-buffer-size=2Ki'),
      'Error: [options.json.splitStream: Forbidden: Feature LoggingAlphaOptions is disabled, options.json.infoBufferSize: Forbidden: Feature LoggingAlphaOptions is disabled]\n',
    );
    assert.equal(refused('--log-text-info-buffer-size=1M'), 'Error: options.text.infoBufferSize: Forbidden: Feature LoggingAlphaOptions is disabled\n');
    assert.match(refused('--log-text-info-buffer-size=abc'), /invalid argument "abc" for "--log-text-info-buffer-size" flag: quantities must match the regular expression/);
    assert.match(refused('--log-text-info-buffer-size=1Mii'), /unable to parse quantity's suffix/);
  });

  it('with --feature-gates=LoggingAlphaOptions=true the chosen format splits its stream, buffering info up to the size', () => {
    assert.deepEqual(logging('--feature-gates=LoggingAlphaOptions=true', '--log-text-split-stream', '--log-text-info-buffer-size=2Ki')?.logging?.splitStream, { infoBufferBytes: 2048 });
    assert.deepEqual(logging('--feature-gates=AllAlpha=true', '--log-text-split-stream=true')?.logging?.splitStream, { infoBufferBytes: 0 });
    // The other format's options do not apply.
    assert.equal(logging('--feature-gates=LoggingAlphaOptions=true', '--log-json-split-stream')?.logging?.splitStream, undefined);
    assert.deepEqual(logging('--feature-gates=LoggingAlphaOptions=true', '--logging-format=json', '--log-json-split-stream', '--log-json-info-buffer-size=1M')?.logging?.splitStream, { infoBufferBytes: 1_000_000 });
  });

  it('--logging-format=json is refused with LoggingBetaOptions off', () => {
    assert.equal(refused('--feature-gates=LoggingBetaOptions=false', '--logging-format=json'), 'Error: format: Forbidden: Log format json is disabled, see LoggingBetaOptions feature\n');
    assert.ok(logging('--feature-gates=LoggingBetaOptions=false'));
  });
});
