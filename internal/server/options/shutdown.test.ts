import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';

const run = (args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'test');

describe('graceful shutdown and health check flags', () => {
  it('take Go durations and bools, with kube\'s defaults', () => {
    const r = run([
      '--shutdown-delay-duration=1m30s',
      '--shutdown-send-retry-after',
      '--shutdown-watch-termination-grace-period',
      '25s',
      '--etcd-healthcheck-timeout=500ms',
      '--etcd-readycheck-timeout=0',
      '--livez-grace-period=2m',
    ]);
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.deepEqual(r.options.shutdown, { delayDurationMs: 90_000, sendRetryAfter: true, watchTerminationGracePeriodMs: 25_000 });
    assert.deepEqual(r.options.healthChecks, { etcdHealthcheckTimeoutMs: 500, etcdReadycheckTimeoutMs: 0, livezGracePeriodMs: 120_000 });
    const off = run(['--shutdown-send-retry-after=false']);
    assert.equal(off.kind === 'run' && off.options.shutdown?.sendRetryAfter, false);
  });

  it('refuse negative durations with kube\'s messages', () => {
    const cases: Array<[string[], string]> = [
      [['--shutdown-delay-duration=-1s'], 'Error: --shutdown-delay-duration can not be negative value\n'],
      [['--shutdown-watch-termination-grace-period=-1s'], 'Error: shutdown-watch-termination-grace-period, if provided, can not be a negative value\n'],
      [
        ['--shutdown-delay-duration=-1s', '--shutdown-watch-termination-grace-period=-2s'],
        'Error: [--shutdown-delay-duration can not be negative value, shutdown-watch-termination-grace-period, if provided, can not be a negative value]\n',
      ],
      [['--livez-grace-period=-5s'], 'Error: --livez-grace-period can not be a negative value\n'],
      [['--shutdown-delay-duration=5'], 'Error: invalid argument "5" for "--shutdown-delay-duration" flag: time: missing unit in duration "5"\n'],
      [['--shutdown-send-retry-after=maybe'], 'Error: invalid argument "maybe" for "--shutdown-send-retry-after" flag: strconv.ParseBool: parsing "maybe": invalid syntax\n'],
    ];
    for (const [args, stderr] of cases) {
      const r = run(args);
      assert.equal(r.kind, 'exit', args.join(' '));
      if (r.kind === 'exit') assert.equal(r.stderr, stderr);
    }
  });

  it('a negative etcd check timeout is accepted, as kube accepts it (every probe then fails at once)', () => {
    const r = run(['--etcd-healthcheck-timeout=-1s']);
    assert.equal(r.kind === 'run' && r.options.healthChecks?.etcdHealthcheckTimeoutMs, -1000);
  });
});
