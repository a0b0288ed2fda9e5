/**
 * Probes against a real container: containerd of the test's own (hack/local-containerd.ts) runs a
 * busybox container through CRI directly; exec probes run through ExecSync (exit code, output,
 * timeout), and an httpGet probe reaches busybox's httpd at the pod IP the runtime gave the
 * sandbox (the pod object carries none, so the manager asks the runtime).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta/types.js';
import { busyboxImage, startContainerd, type LocalContainerd } from '../../hack/local-containerd.js';
import { execProbe } from '../../internal/nodeagent/probes/exec-probe.js';
import { createProbeManager } from '../../internal/nodeagent/probes/manager.js';
import { connectCri, type CriClient } from '../../internal/nodeagent/runtime/cri-client.js';
import { testAgentContext } from '../support/agent-context.js';

let containerd: LocalContainerd;
let cri: CriClient;
let containerId = '';
const uid = 'probe-pod-uid';

describe('probes in a containerd container', () => {
  before(async () => {
    containerd = await startContainerd(`/tmp/capstan-probes-${process.pid}`);
    cri = connectCri(containerd.endpoint, 60_000);
    const sandboxConfig = { metadata: { name: 'probes', uid, namespace: 'default', attempt: 0 }, hostname: 'probes', linux: {} };
    const { pod_sandbox_id: sandboxId = '' } = await cri.runtime.RunPodSandbox({ config: sandboxConfig });
    const created = await cri.runtime.CreateContainer({
      pod_sandbox_id: sandboxId,
      config: {
        metadata: { name: 'app', attempt: 0 },
        image: { image: busyboxImage },
        command: ['sh', '-c', 'mkdir -p /www && echo hello > /www/index.html && httpd -f -p 8080 -h /www'],
        linux: {},
      },
      sandbox_config: sandboxConfig,
    });
    containerId = created.container_id ?? '';
    await cri.runtime.StartContainer({ container_id: containerId });
  });

  after(async () => {
    cri?.close();
    await containerd?.stop();
  });

  it('exec: exit code 0 succeeds, another fails with stdout and stderr, a timeout fails', async () => {
    assert.deepEqual(await execProbe(cri, containerId, ['sh', '-c', 'echo fine'], 5), { result: 'success', output: 'fine\n' });
    assert.deepEqual(await execProbe(cri, containerId, ['sh', '-c', 'echo out; echo err >&2; exit 3'], 5), { result: 'failure', output: 'out\nerr\n' });
    const slow = await execProbe(cri, containerId, ['sleep', '10'], 1);
    assert.deepEqual(slow, { result: 'failure', output: 'command "sleep 10" timed out' });
    const missing = await execProbe(cri, 'no-such-container', ['true'], 1);
    assert.equal(missing.result, 'unknown');
    assert.ok(missing.error);
  });

  it('the manager: exec liveness failure and readiness, httpGet at the runtime-given pod IP', async () => {
    const ctx = testAgentContext({ cri });
    const pm = createProbeManager(ctx);
    const failures: string[] = [];
    pm.onFailure((_u, name, id, message) => failures.push(`${name} ${id === containerId} ${message}`));
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'probes', namespace: 'default', uid },
      spec: {
        containers: [
          {
            name: 'app',
            image: busyboxImage,
            env: [{ name: 'MARK', value: '/www/index.html' }],
            ports: [{ name: 'http', containerPort: 8080 }],
            livenessProbe: { exec: { command: ['sh', '-c', 'echo broken; exit 1'] }, periodSeconds: 1, timeoutSeconds: 2, successThreshold: 1, failureThreshold: 2 },
            readinessProbe: { exec: { command: ['test', '-f', '$(MARK)'] }, periodSeconds: 1, timeoutSeconds: 2, successThreshold: 1, failureThreshold: 1 },
            startupProbe: { httpGet: { path: '/index.html', port: 'http' }, periodSeconds: 1, timeoutSeconds: 2, successThreshold: 1, failureThreshold: 10 },
          },
        ],
      },
    };
    pm.containerStarted(pod, 'app', containerId, Date.now());
    const deadline = Date.now() + 20_000;
    while (!(failures.length > 0 && pm.isReady(uid, 'app'))) {
      if (Date.now() > deadline) throw new Error(`timed out: failures ${failures}, ready ${pm.isReady(uid, 'app')}, events ${JSON.stringify(ctx.events.events.map((e) => e.message))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(pm.isStarted(uid, 'app'), true, 'the httpGet startup probe reached httpd at the sandbox IP');
    assert.deepEqual(failures, ['app true Container app failed liveness probe']);
    assert.ok(ctx.events.events.some((e) => e.type === 'Warning' && e.reason === 'Unhealthy' && e.message === 'Liveness probe failed: broken\n'));
    pm.stop();
  });
});
