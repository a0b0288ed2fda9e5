import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultAuditOptions } from './audit.js';
import { parseFlags } from './flags.js';

const run = (args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'test');

function error(args: string[]): string {
  const r = run(args);
  assert.equal(r.kind, 'exit', args.join(' '));
  return r.kind === 'exit' ? (r.stderr ?? '').trim() : '';
}

describe('audit flags', () => {
  it('kube’s defaults: log blocking and unbatched, webhook batched', () => {
    const r = run([]);
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.deepEqual(r.options.audit, defaultAuditOptions);
    assert.deepEqual(defaultAuditOptions.webhook.batch, { bufferSize: 10000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15, asyncDelegate: true });
    assert.equal(defaultAuditOptions.webhook.initialBackoffMs, 10_000);
    assert.deepEqual(defaultAuditOptions.log.truncate, { maxBatchSize: 10485760, maxEventSize: 102400 });
  });

  it('reads every flag', () => {
    const r = run([
      '--audit-policy-file=/p.yaml',
      '--audit-log-path=/var/log/audit.log',
      '--audit-log-format=legacy',
      '--audit-log-maxage=7',
      '--audit-log-maxbackup=3',
      '--audit-log-maxsize=50',
      '--audit-log-compress',
      '--audit-log-mode=batch',
      '--audit-log-batch-buffer-size=5',
      '--audit-log-batch-max-size=2',
      '--audit-log-batch-max-wait=1s',
      '--audit-log-batch-throttle-enable',
      '--audit-log-batch-throttle-qps=0.5',
      '--audit-log-batch-throttle-burst=4',
      '--audit-log-truncate-enabled=true',
      '--audit-log-truncate-max-batch-size=2000',
      '--audit-log-truncate-max-event-size=1000',
      '--audit-log-version=audit.k8s.io/v1',
      '--audit-webhook-config-file=/w.kubeconfig',
      '--audit-webhook-initial-backoff=3s',
      '--audit-webhook-mode=blocking-strict',
      '--audit-webhook-batch-throttle-enable=false',
      '--audit-webhook-truncate-enabled',
    ]);
    assert.equal(r.kind, 'run', r.kind === 'exit' ? r.stderr : '');
    if (r.kind !== 'run') return;
    assert.deepEqual(r.options.audit, {
      policyFile: '/p.yaml',
      log: {
        path: '/var/log/audit.log',
        format: 'legacy',
        maxAge: 7,
        maxBackups: 3,
        maxSize: 50,
        compress: true,
        mode: 'batch',
        batch: { bufferSize: 5, maxBatchSize: 2, maxBatchWaitMs: 1000, throttleEnable: true, throttleQPS: 0.5, throttleBurst: 4, asyncDelegate: false },
        truncateEnabled: true,
        truncate: { maxBatchSize: 2000, maxEventSize: 1000 },
        version: 'audit.k8s.io/v1',
      },
      webhook: {
        configFile: '/w.kubeconfig',
        initialBackoffMs: 3000,
        mode: 'blocking-strict',
        batch: { ...defaultAuditOptions.webhook.batch, throttleEnable: false },
        truncateEnabled: true,
        truncate: defaultAuditOptions.webhook.truncate,
        version: 'audit.k8s.io/v1',
      },
    });
  });

  it('refuses what kube refuses, for an enabled backend only', () => {
    assert.equal(run(['--audit-log-mode=nope', '--audit-log-maxage=-1']).kind, 'run', 'no --audit-log-path: the log flags are not checked');
    assert.equal(
      error(['--audit-log-path=-', '--audit-log-mode=nope', '--audit-log-format=xml', '--audit-log-maxage=-1', '--audit-log-maxbackup=-2', '--audit-log-maxsize=-3']),
      'Error: [invalid audit log mode nope, allowed modes are "batch,blocking,blocking-strict", invalid audit log format xml, allowed formats are "legacy,json", --audit-log-maxage -1 can\'t be a negative number, --audit-log-maxbackup -2 can\'t be a negative number, --audit-log-maxsize -3 can\'t be a negative number]',
    );
    assert.equal(error(['--audit-log-path=-', '--audit-log-mode=batch', '--audit-log-batch-buffer-size=0']), 'Error: invalid audit batch log buffer size 0, must be a positive number');
    assert.equal(run(['--audit-log-path=-', '--audit-log-batch-buffer-size=0']).kind, 'run', 'batch settings matter in batch mode only');
    assert.equal(error(['--audit-webhook-config-file=/w', '--audit-webhook-batch-max-size=-1']), 'Error: invalid audit batch webhook max batch size -1, must be a positive number');
    assert.equal(error(['--audit-webhook-config-file=/w', '--audit-webhook-batch-throttle-burst=0']), 'Error: invalid audit batch webhook throttle burst 0, must be a positive number');
    assert.equal(error(['--audit-log-path=-', '--audit-log-truncate-max-event-size=0']), 'Error: invalid audit truncate log max event size 0, must be a positive number');
    assert.equal(
      error(['--audit-log-path=-', '--audit-log-truncate-max-batch-size=10', '--audit-log-truncate-max-event-size=20']),
      'Error: invalid audit truncate log max batch size 10, must be greater than max event size (20)',
    );
    assert.equal(error(['--audit-webhook-config-file=/w', '--audit-webhook-version=audit.k8s.io/v1beta1']), 'Error: invalid group version, allowed versions are ["audit.k8s.io/v1"]');
    assert.equal(error(['--audit-log-path=-', '--audit-log-version=a/b/c']), 'Error: unexpected GroupVersion string: a/b/c');
    assert.match(error(['--audit-log-maxsize=ten']), /invalid argument "ten" for "--audit-log-maxsize" flag: strconv.ParseInt/);
    assert.match(error(['--audit-log-batch-throttle-qps=fast']), /invalid argument "fast" for "--audit-log-batch-throttle-qps" flag: strconv.ParseFloat/);
    assert.match(error(['--audit-log-compress=maybe']), /invalid argument "maybe" for "--audit-log-compress" flag: strconv.ParseBool/);
  });
});
