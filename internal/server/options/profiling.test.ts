import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';
import { defaultProfilingOptions } from './profiling.js';

const run = (...args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'test');

describe('profiling flags', () => {
  it('--profiling defaults to true; --debug-socket-path to none', () => {
    const r = run();
    assert.deepEqual(r.kind === 'run' && r.options.profiling, defaultProfilingOptions);
    assert.deepEqual(defaultProfilingOptions, { enabled: true, debugSocketPath: '' });
  });

  it('--profiling=false and --debug-socket-path', () => {
    const r = run('--profiling=false', '--debug-socket-path=/run/capstan/debug.sock');
    assert.deepEqual(r.kind === 'run' && r.options.profiling, { enabled: false, debugSocketPath: '/run/capstan/debug.sock' });
    assert.equal(run('--profiling').kind === 'run', true);
  });

  it('--contention-profiling=true is refused: block profiling has no Node.js equivalent', () => {
    assert.equal(run('--contention-profiling=false').kind, 'run');
    const r = run('--contention-profiling');
    assert.equal(r.kind, 'exit');
    assert.match(r.kind === 'exit' ? (r.stderr ?? '') : '', /^Error: --contention-profiling is not supported: /);
  });
});
