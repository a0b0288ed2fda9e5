import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HealthCheck } from '../health.js';
import { LifecycleSignal } from '../lifecycle/signals.js';
import { delayedLivezCheck, pingCheck, postStartHookCheck, shutdownCheck } from './checks.js';
import { newLogCheck } from './log-check.js';
import { HealthRegistry } from './registry.js';

const named = (name: string): HealthCheck => ({ name, check: () => undefined });
const names = (checks: readonly HealthCheck[]): string[] => checks.map((c) => c.name);
const throwsWith = async (check: HealthCheck, message: string): Promise<void> => {
  await assert.rejects(async () => check.check(), { message });
};

describe('health registry', () => {
  it('puts each kind of check on kube\'s endpoints, in order', () => {
    const r = new HealthRegistry(0)
      .addHealthChecks(pingCheck, named('log'), named('etcd'))
      .addReadyzChecks(named('etcd-readiness'))
      .addHealthChecksWithoutLivez(named('kms-providers'))
      .addReadyzChecks(named('informer-sync'))
      .addBootSequenceHealthChecks(named('poststarthook/bootstrap-controller'))
      .addReadyzChecks(named('shutdown'));
    const e = r.endpoints();
    assert.deepEqual(names(e.healthz), ['ping', 'log', 'etcd', 'kms-providers', 'poststarthook/bootstrap-controller']);
    assert.deepEqual(names(e.livez), ['ping', 'log', 'etcd', 'poststarthook/bootstrap-controller']);
    assert.deepEqual(names(e.readyz), ['ping', 'log', 'etcd', 'etcd-readiness', 'kms-providers', 'informer-sync', 'poststarthook/bootstrap-controller', 'shutdown']);
  });

  it('--livez-grace-period: livez passes unfinished post-start hooks until the grace period from installation ends; healthz and readyz never', async () => {
    let now = 1000;
    const hook = postStartHookCheck('start-system-namespaces-controller', () => false);
    const e = new HealthRegistry(30_000, () => now).addHealthChecks(named('etcd')).addBootSequenceHealthChecks(hook).endpoints();
    const livezHook = e.livez[1] as HealthCheck;
    assert.equal(livezHook.name, 'poststarthook/start-system-namespaces-controller');
    now = 31_000;
    assert.equal(await livezHook.check(), undefined, 'still within the grace period');
    await throwsWith(e.readyz[1] as HealthCheck, 'not finished');
    await throwsWith(e.healthz[1] as HealthCheck, 'not finished');
    now = 31_001;
    await throwsWith(livezHook, 'not finished');
    assert.equal(e.livez[0]?.name, 'etcd');
    assert.equal(e.livez[0], e.healthz[0], 'generic checks get no grace');
  });

  it('a zero grace period installs the check itself', () => {
    const hook = postStartHookCheck('x', () => true);
    assert.equal(new HealthRegistry(0).addBootSequenceHealthChecks(hook).endpoints().livez[0], hook);
  });
});

describe('health checks', () => {
  it('shutdown fails from ShutdownInitiated on', async () => {
    const initiated = new LifecycleSignal('ShutdownInitiated');
    const check = shutdownCheck(initiated);
    assert.equal(check.name, 'shutdown');
    assert.equal(await check.check(), undefined);
    initiated.signal();
    await throwsWith(check, 'process is shutting down');
  });

  it('delayedLivezCheck starts checking strictly after the delay', async () => {
    let now = 0;
    const check = delayedLivezCheck({ name: 'c', check: () => Promise.reject(new Error('down')) }, 10, () => now);
    now = 10;
    assert.equal(await check.check(), undefined);
    now = 11;
    await throwsWith(check, 'down');
  });

  it('log: flushes on the first check and every minute; "logging blocked" once no flush completed for two minutes', async () => {
    let now = 0;
    const pending: Array<() => void> = [];
    const check = newLogCheck((done) => pending.push(done), () => now);
    assert.equal(check.name, 'log');
    assert.equal(await check.check(), undefined);
    assert.equal(pending.length, 1, 'the first check flushes at once');
    (pending.shift() as () => void)();
    now = 119_999;
    assert.equal(await check.check(), undefined);
    now = 120_000;
    await throwsWith(check, 'logging blocked');
  });
});
