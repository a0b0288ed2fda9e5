/**
 * End to end, `kubectl logs` against the real node agent (a child process on a containerd of the
 * test's own) through the API server's pods/log: a pod with two containers, one writing a line every
 * 200 ms and one that exits and is restarted; `-c`, `--tail`, `--timestamps`, `--limit-bytes`,
 * `-f` (lines arriving as they are written) and `--previous` (the instance before the restart),
 * and kube's message for a container that has not started.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { kubectlStream, waitFor } from '../support/kubectl.js';
import { busyboxPod, defaultServiceAccount, eventually, useNodeAgent, waitForPod } from '../support/node-agent.js';

const fx = useNodeAgent({ tag: 'na-logs' });

describe('node agent: kubectl logs', { timeout: 120_000 }, () => {
  before(async () => {
    await defaultServiceAccount(fx);
    const pod = busyboxPod('chatty', fx.nodeName, { name: 'ticker', command: ['sh', '-c', 'echo start; i=0; while true; do i=$((i+1)); echo tick $i; sleep 0.2; done'] });
    const spec = pod.spec as { containers: Record<string, unknown>[] };
    spec.containers.push({ name: 'runner', image: 'capstan.local/busybox:1', imagePullPolicy: 'Never', command: ['sh', '-c', 'echo run at $(cat /proc/uptime); sleep 1; exit 1'] });
    const r = await fx.kubectl(['apply', '-f', '-'], { input: JSON.stringify(pod) });
    assert.equal(r.code, 0, r.stderr);
    await waitForPod(fx, 'default', 'chatty', (p) => (p.status?.containerStatuses ?? []).some((c) => c.name === 'ticker' && c.state?.running !== undefined), 'ticker running', 45_000);
  });

  it('shows a container (-c) with --tail, --timestamps and --limit-bytes', async () => {
    const all = await eventually(async () => {
      const r = await fx.kubectl(['logs', 'chatty', '-c', 'ticker']);
      return r.code === 0 && r.stdout.includes('tick 3\n') ? r : undefined;
    }, 15_000, () => 'kubectl logs chatty -c ticker to show tick 3');
    assert.match(all.stdout, /^start\ntick 1\ntick 2\ntick 3\n/);
    const tail = await fx.kubectl(['logs', 'chatty', '-c', 'ticker', '--tail=1', '--timestamps']);
    assert.match(tail.stdout, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}(Z|[+-]\d\d:\d\d) tick \d+\n$/);
    const limited = await fx.kubectl(['logs', 'chatty', '-c', 'ticker', '--limit-bytes=8']);
    assert.equal(limited.stdout, 'start\nti');
  });

  it('follows (-f) as lines are written', async () => {
    const follow = kubectlStream(fx.adminKubeconfig, ['logs', '-f', 'chatty', '-c', 'ticker', '--tail=1']);
    try {
      const first = () => Number(/tick (\d+)/.exec(follow.output())?.[1] ?? 0);
      assert.ok(await waitFor(() => first() > 0, 15_000), follow.output());
      const from = first();
      assert.ok(await waitFor(() => follow.output().includes(`tick ${from + 5}\n`), 15_000), follow.output());
      const ticks = [...follow.output().matchAll(/tick (\d+)/g)].map((m) => Number(m[1]));
      for (let i = 1; i < ticks.length; i++) assert.equal(ticks[i], (ticks[i - 1] as number) + 1, follow.output());
    } finally {
      await follow.stop();
    }
  });

  it('shows the previous instance (--previous) once the container restarted', async () => {
    await waitForPod(fx, 'default', 'chatty', (p) => (p.status?.containerStatuses ?? []).some((c) => c.name === 'runner' && (c.restartCount ?? 0) >= 1), 'runner restarted', 45_000);
    const previous = await fx.kubectl(['logs', 'chatty', '-c', 'runner', '--previous']);
    assert.equal(previous.code, 0, previous.stderr);
    assert.match(previous.stdout, /^run at [\d.]+ [\d.]+\n$/);
    const none = await fx.kubectl(['logs', 'chatty', '-c', 'ticker', '--previous']);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /previous terminated container "ticker" in pod "chatty" not found/);
  });
});
