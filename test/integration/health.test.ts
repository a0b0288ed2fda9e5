/**
 * /healthz, /livez and /readyz against a real server and etcd: kube's check lists per endpoint,
 * ?verbose, ?exclude, one check per path, and the etcd checks failing within
 * --etcd-healthcheck-timeout / --etcd-readycheck-timeout while etcd hangs, then recovering.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';

const fx = useServer({}, ['--etcd-healthcheck-timeout=500ms', '--etcd-readycheck-timeout=800ms']);

const lines = (text: string): string[] => text.trimEnd().split('\n');
const hooks = [
  '[+]poststarthook/priority-and-fairness-config-consumer ok',
  '[+]poststarthook/priority-and-fairness-filter ok',
  '[+]poststarthook/start-apiextensions-informers ok',
  '[+]poststarthook/start-apiextensions-controllers ok',
  '[+]poststarthook/crd-informer-synced ok',
  '[+]poststarthook/start-system-namespaces-controller ok',
  '[+]poststarthook/bootstrap-controller ok',
  '[+]poststarthook/rbac/bootstrap-roles ok',
  '[+]poststarthook/scheduling/bootstrap-system-priority-classes ok',
  '[+]poststarthook/priority-and-fairness-config-producer ok',
  '[+]poststarthook/kube-apiserver-autoregistration ok',
  '[+]autoregister-completion ok',
];

async function eventually(what: string, fn: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('health endpoints', () => {
  it('list kube\'s checks: livez has no readiness checks, readyz adds etcd-readiness, informer-sync and shutdown', async () => {
    const healthz = await fx.request('GET', '/healthz?verbose');
    assert.equal(healthz.status, 200);
    assert.deepEqual(lines(healthz.text), ['[+]ping ok', '[+]log ok', '[+]etcd ok', ...hooks, 'healthz check passed']);
    assert.deepEqual(lines((await fx.request('GET', '/livez?verbose')).text), ['[+]ping ok', '[+]log ok', '[+]etcd ok', ...hooks, 'livez check passed']);
    assert.deepEqual(lines((await fx.request('GET', '/readyz?verbose')).text), [
      '[+]ping ok',
      '[+]log ok',
      '[+]etcd ok',
      '[+]etcd-readiness ok',
      '[+]informer-sync ok',
      ...hooks,
      '[+]shutdown ok',
      'readyz check passed',
    ]);
    for (const path of ['/healthz', '/livez', '/readyz']) {
      const res = await fx.request('GET', path);
      assert.deepEqual([res.status, res.text, res.headers['content-type'], res.headers['x-content-type-options']], [200, 'ok', 'text/plain; charset=utf-8', 'nosniff']);
    }
  });

  it('?exclude is repeatable and warns about unknown names; one check per path; unknown checks are 404', async () => {
    const res = await fx.request('GET', '/readyz?verbose&exclude=etcd&exclude=informer-sync&exclude=kms-provider-0');
    assert.deepEqual(lines(res.text).slice(0, 5), ['[+]ping ok', '[+]log ok', '[+]etcd excluded: ok', '[+]etcd-readiness ok', '[+]informer-sync excluded: ok']);
    assert.match(res.text, /\nwarn: some health checks cannot be excluded: no matches for "kms-provider-0"\nreadyz check passed\n$/);
    assert.equal((await fx.request('GET', '/readyz/etcd-readiness')).text, 'ok');
    assert.equal((await fx.request('GET', '/livez/poststarthook/bootstrap-controller')).text, 'ok');
    for (const path of ['/livez/etcd-readiness', '/livez/shutdown', '/healthz/informer-sync', '/readyz/nothing', '/readyz/']) {
      const missing = await fx.request('GET', path);
      assert.deepEqual([missing.status, missing.text], [404, '404 page not found\n'], path);
    }
    const head = await fx.request('HEAD', '/readyz');
    assert.deepEqual([head.status, head.text], [200, '']);
  });

  it('the etcd checks fail within their timeouts while etcd hangs, and recover when it answers again', async () => {
    // Half a timeout after the last probe, the next check probes again.
    await new Promise((r) => setTimeout(r, 500));
    process.kill(fx.etcd.pid, 'SIGSTOP');
    try {
      const started = Date.now();
      const ready = await fx.request('GET', '/readyz?verbose');
      const took = Date.now() - started;
      assert.equal(ready.status, 500);
      assert.ok(took >= 700 && took < 5000, `readyz took ${took}ms (etcd-readiness times out after 800ms)`);
      const text = ready.text;
      assert.match(text, /^\[-\]etcd failed: reason withheld$/m);
      assert.match(text, /^\[-\]etcd-readiness failed: reason withheld$/m);
      assert.match(text, /\nreadyz check failed\n$/);
      assert.ok(!text.includes('deadline'), 'the reason stays out of the public answer');
      const one = await fx.request('GET', '/livez/etcd');
      assert.deepEqual([one.status, one.text], [500, 'internal server error: error getting data from etcd: context deadline exceeded\n']);
      assert.equal((await fx.request('GET', '/healthz')).status, 500);
      assert.equal((await fx.request('GET', '/livez?exclude=etcd')).status, 200);
    } finally {
      process.kill(fx.etcd.pid, 'SIGCONT');
    }
    await eventually('readyz to pass again', async () => (await fx.request('GET', '/readyz')).status === 200);
    assert.equal((await fx.request('GET', '/livez/etcd')).text, 'ok');
  });
});
