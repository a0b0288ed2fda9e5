/**
 * End to end, issue 16's pods on a real runtime: the node agent (a child process, system:node:<name>)
 * against an API server with client certificates, Node,RBAC and NodeRestriction, on a containerd of
 * the test's own, driven with the real kubectl as an admin:
 * 1. a busybox pod bound to the node by spec.nodeName (Capstan has no scheduler) reaches Running with
 *    a pod IP from the CNI bridge, and `kubectl logs` shows its output;
 * 2. `kubectl exec` runs a command in it (output and exit code);
 * 3. a failing liveness probe restarts its container (restartCount grows, Unhealthy event);
 * 4. deleting a pod whose process ignores SIGTERM stops it after its grace period, not before and not
 *    much after, and CRI has none of its containers running afterwards;
 * 5. a static pod written to --pod-manifest-path runs and appears as a mirror pod, which goes when
 *    the manifest does.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { before, describe, it } from 'node:test';
import { busyboxPod, defaultServiceAccount, eventually, getPod, useNodeAgent, waitForPod, type PodObject } from '../support/node-agent.js';

const fx = useNodeAgent({ tag: 'na-pods' });

function running(p: PodObject): boolean {
  return p.status?.phase === 'Running' && !!p.status.podIP && (p.status.containerStatuses ?? []).every((c) => c.ready);
}

/** Whether ip is inside the a.b.c.0/24 cidr. */
function inCidr24(ip: string, cidr: string): boolean {
  return ip.split('.').slice(0, 3).join('.') === cidr.split('.').slice(0, 3).join('.');
}

async function create(pod: Record<string, unknown>): Promise<void> {
  const r = await fx.kubectl(['apply', '-f', '-'], { input: JSON.stringify(pod) });
  assert.equal(r.code, 0, `kubectl apply: ${r.stderr}`);
}

describe('node agent: pods on containerd', { timeout: 150_000 }, () => {
  before(() => defaultServiceAccount(fx));

  it('runs a busybox pod bound by spec.nodeName to Running with a pod IP, and kubectl logs shows its output', async () => {
    await create(busyboxPod('hello', fx.nodeName, { command: ['sh', '-c', 'echo hello from capstan; echo second line; exec sleep 3600'] }));
    const pod = await waitForPod(fx, 'default', 'hello', running, 'to be Running with a pod IP', 45_000);
    assert.ok(inCidr24(pod.status!.podIP!, fx.containerd.podCIDR), `pod IP ${pod.status!.podIP} from the bridge's ${fx.containerd.podCIDR}`);
    assert.equal(pod.status!.hostIP, '127.0.0.1');
    const ready = pod.status!.conditions?.find((c) => c.type === 'Ready');
    assert.equal(ready?.status, 'True');
    assert.match(pod.status!.containerStatuses![0]!.containerID ?? '', /^containerd:\/\/[0-9a-f]{64}$/);

    const table = await fx.kubectl(['get', 'pod', 'hello', '-o', 'wide']);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, new RegExp(`hello\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+${pod.status!.podIP!.replace(/\./g, '\\.')}\\s+${fx.nodeName}`));

    const logs = await eventually(
      async () => {
        const r = await fx.kubectl(['logs', 'hello']);
        return r.code === 0 && r.stdout.includes('second line') ? r : undefined;
      },
      15_000,
      () => 'kubectl logs hello to show both lines',
    );
    assert.equal(logs.stdout, 'hello from capstan\nsecond line\n');
  });

  it('kubectl exec runs a command in the container, with its output and exit code', async () => {
    const r = await fx.kubectl(['exec', 'hello', '--', 'sh', '-c', 'echo $((6 * 7)); hostname; cat /etc/hostname']);
    assert.equal(r.code, 0, `kubectl exec: ${r.stderr}`);
    assert.equal(r.stdout, '42\nhello\nhello\n');
    const failing = await fx.kubectl(['exec', 'hello', '-c', 'main', '--', 'sh', '-c', 'echo to stderr >&2; exit 3']);
    assert.equal(failing.code, 3, `exit code of the command: ${failing.stderr}`);
    assert.match(failing.stderr, /to stderr/);
  });

  it('restarts a container whose liveness probe fails: restartCount grows', async () => {
    await create(
      busyboxPod('unhealthy', fx.nodeName, {
        command: ['sh', '-c', 'exec sleep 3600'],
        livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, periodSeconds: 1, failureThreshold: 2 },
      }),
    );
    const pod = await waitForPod(fx, 'default', 'unhealthy', (p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1, 'to have restarted its container', 45_000);
    const status = pod.status!.containerStatuses![0]!;
    assert.ok(status.lastState?.terminated, `lastState.terminated after a liveness restart: ${JSON.stringify(status.lastState)}`);
    // kubelet's event for the probe (prober.go: "Liveness probe failed: ...").
    const events = await eventually(
      async () => {
        const r = await fx.api('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dunhealthy');
        const items = r.json<{ items: { reason: string; message: string; source?: { component?: string; host?: string } }[] }>().items;
        return items.some((e) => e.reason === 'Unhealthy') && items.some((e) => e.reason === 'Killing') ? items : undefined;
      },
      15_000,
      () => 'Unhealthy and Killing events for the pod',
    );
    const unhealthy = events.find((e) => e.reason === 'Unhealthy')!;
    assert.match(unhealthy.message, /^Liveness probe failed: /);
    assert.equal(unhealthy.source?.component, 'kubelet');
    assert.equal(unhealthy.source?.host, fx.nodeName);
    const killing = events.find((e) => e.reason === 'Killing')!;
    assert.match(killing.message, /Container main failed liveness probe, will be restarted/);
  });

  it('deleting a pod stops its containers within the grace period (after SIGTERM is ignored, SIGKILL)', async () => {
    // sleep as PID 1 has no SIGTERM handler, so the kernel ignores SIGTERM: only the kill after
    // terminationGracePeriodSeconds stops it.
    await create(busyboxPod('stubborn', fx.nodeName, { command: ['sleep', '3600'] }, { terminationGracePeriodSeconds: 3 }));
    const pod = await waitForPod(fx, 'default', 'stubborn', running, 'to be Running', 45_000);
    const uid = pod.metadata.uid;
    const cri = fx.cri();
    const before = await cri.runtime.ListContainers({ filter: { label_selector: { 'io.kubernetes.pod.uid': uid } } });
    assert.ok((before.containers ?? []).some((c) => c.state === 'CONTAINER_RUNNING'), 'CRI runs the pod container, labelled with the pod uid');

    const started = Date.now();
    const del = await fx.kubectl(['delete', 'pod', 'stubborn', '--wait=true', '--timeout=30s']);
    const elapsed = (Date.now() - started) / 1000;
    assert.equal(del.code, 0, `kubectl delete: ${del.stderr}`);
    assert.equal(await getPod(fx, 'default', 'stubborn'), undefined);
    assert.ok(elapsed >= 2.5, `the container got its grace period (3 s) before it was killed; gone after ${elapsed.toFixed(1)} s`);
    assert.ok(elapsed <= 3 + 8, `stopped within the grace period (3 s) and a little; took ${elapsed.toFixed(1)} s`);

    const containers = (await cri.runtime.ListContainers({ filter: { label_selector: { 'io.kubernetes.pod.uid': uid } } })).containers ?? [];
    assert.deepEqual(
      containers.filter((c) => c.state === 'CONTAINER_RUNNING' || c.state === 'CONTAINER_CREATED').map((c) => `${c.metadata?.name} ${c.state}`),
      [],
      'no container of the deleted pod left running',
    );
    const sandboxes = (await cri.runtime.ListPodSandbox({ filter: { label_selector: { 'io.kubernetes.pod.uid': uid } } })).items ?? [];
    assert.deepEqual(
      sandboxes.filter((s) => s.state === 'SANDBOX_READY').map((s) => s.id),
      [],
      'the sandbox is stopped',
    );
  });

  it('runs a static pod from --pod-manifest-path and mirrors it in the API server', async () => {
    const path = await fx.writeManifest('static-web.json', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'static-web', namespace: 'default' },
      spec: { containers: [{ name: 'web', image: 'capstan.local/busybox:1', imagePullPolicy: 'Never', command: ['sh', '-c', 'echo static; exec sleep 3600'] }], terminationGracePeriodSeconds: 1 },
    });
    const mirrorName = `static-web-${fx.nodeName}`;
    const mirror = await waitForPod(fx, 'default', mirrorName, running, 'to appear as a Running mirror pod', 45_000);
    assert.equal(mirror.spec.nodeName, fx.nodeName);
    const annotations = mirror.metadata.annotations ?? {};
    assert.ok('kubernetes.io/config.mirror' in annotations, `mirror annotation: ${JSON.stringify(annotations)}`);
    assert.equal(annotations['kubernetes.io/config.source'], 'file');
    assert.equal(annotations['kubernetes.io/config.mirror'], annotations['kubernetes.io/config.hash']);
    const logs = await fx.kubectl(['logs', mirrorName]);
    assert.equal(logs.stdout, 'static\n', logs.stderr);

    await rm(path);
    await eventually(async () => ((await getPod(fx, 'default', mirrorName)) === undefined ? true : undefined), 30_000, () => `mirror pod ${mirrorName} to go with its manifest`);
  });
});
