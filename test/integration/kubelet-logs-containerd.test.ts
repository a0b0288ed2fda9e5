/**
 * The kubelet server's /containerLogs over a real runtime: a busybox container run through CRI on a
 * containerd of the test's own writes its CRI log file; the server reads it (tail, follow), follows it
 * across a rotation done with the runtime's ReopenContainerLog, and reads the previous instance's
 * log once a second instance runs. The pod workers are stood in for by a handler reporting the pod.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../../hack/local-etcd.js';
import { busyboxImage, startContainerd, type LocalContainerd } from '../../hack/local-containerd.js';
import type { KubeObject } from '../../api/meta/types.js';
import { defaultNodeAgentConfig } from '../../internal/nodeagent/options/defaults.js';
import { connectCri, type CriClient } from '../../internal/nodeagent/runtime/cri-client.js';
import { rotateIfNeeded } from '../../internal/nodeagent/logs/rotation.js';
import { startKubeletServers, type KubeletServers } from '../../internal/nodeagent/server/build.js';
import { agentContext, echoStreaming, fakePods, fakeSummary } from '../support/kubelet-fakes.js';

const dir = `/tmp/capstan-na-server-${process.pid}`;
let containerd: LocalContainerd;
let cri: CriClient;
let servers: KubeletServers;
let abort: () => void;
const uid = 'uid-logs-1';
const statuses: Record<string, unknown>[] = [];
const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'talker', namespace: 'default', uid },
  spec: { containers: [{ name: 'app', image: busyboxImage }] },
  get status() {
    return { phase: 'Running', containerStatuses: statuses };
  },
} as unknown as KubeObject;
let sandboxId = '';
const sandboxConfig = {
  metadata: { name: 'talker', namespace: 'default', uid, attempt: 0 },
  log_directory: join(dir, 'pods', `default_talker_${uid}`),
  linux: {},
};

async function startInstance(attempt: number, script: string): Promise<string> {
  const created = await cri.runtime.CreateContainer({
    pod_sandbox_id: sandboxId,
    config: { metadata: { name: 'app', attempt }, image: { image: busyboxImage }, command: ['sh', '-c', script], log_path: `app/${attempt}.log`, linux: {} },
    sandbox_config: sandboxConfig,
  });
  const id = created.container_id ?? '';
  await cri.runtime.StartContainer({ container_id: id });
  return id;
}

function get(path: string, onData?: (text: string) => boolean): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: servers.port, path, rejectUnauthorized: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString();
        if (onData?.(text)) {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, text });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', (err) => (onData ? undefined : reject(err)));
    req.end();
  });
}

describe('kubelet server logs over containerd', () => {
  before(async () => {
    containerd = await startContainerd(dir);
    cri = connectCri(containerd.endpoint, 30_000);
    await mkdir(sandboxConfig.log_directory, { recursive: true });
    sandboxId = (await cri.runtime.RunPodSandbox({ config: sandboxConfig })).pod_sandbox_id ?? '';
    const config = {
      ...defaultNodeAgentConfig(),
      address: '127.0.0.1',
      port: await freePort(),
      readOnlyPort: 0,
      healthzPort: 0,
      certDir: join(dir, 'pki'),
      authentication: { x509: {}, webhook: { enabled: false, cacheTTLMs: 0 }, anonymous: { enabled: true } },
      authorization: { mode: 'AlwaysAllow' as const, webhook: { cacheAuthorizedTTLMs: 0, cacheUnauthorizedTTLMs: 0 } },
      containerLogMaxSize: 0,
    };
    // No API server is reached: anonymous and AlwaysAllow need none.
    const ctx = agentContext(config, 'logs-node', 'https://127.0.0.1:1', '', 'unused', cri);
    abort = ctx.abort;
    servers = await startKubeletServers(ctx, { pods: fakePods([pod]), summary: fakeSummary, streaming: echoStreaming, logDir: dir });
  });
  after(async () => {
    await servers?.stop();
    abort?.();
    cri?.close();
    await containerd?.stop();
  });

  it('reads, tails and follows a running container log, across a rotation', async () => {
    const first = await startInstance(0, 'echo one; echo two >&2; i=0; while [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); echo tick $i; done');
    statuses.splice(0, statuses.length, { name: 'app', containerID: `containerd://${first}`, state: { running: {} }, lastState: {}, restartCount: 0 });
    const start = await get('/containerLogs/default/talker/app?follow=true', (t) => t.includes('tick 2\n'));
    // stdout and stderr are copied by the runtime separately: their relative order may vary.
    assert.match(start.text, /^(one\ntwo|two\none)\ntick 1\ntick 2\n/);
    const whole = await get('/containerLogs/default/talker/app');
    assert.match(whole.text, /^(one\ntwo|two\none)\ntick 1\ntick 2\n(tick \d+\n)*$/);
    const tail = await get('/containerLogs/default/talker/app?tailLines=1&timestamps=true');
    assert.match(tail.text, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}(Z|[+-]\d\d:\d\d) tick \d+\n$/);
    // Follow, rotate underneath, and keep seeing new lines from the reopened file.
    let rotated = false;
    let seenAfter = '';
    const followed = get('/containerLogs/default/talker/app?follow=true&tailLines=0', (t) => {
      if (rotated && seenAfter === '') seenAfter = t;
      return rotated && t.length > seenAfter.length && /tick \d+\n$/.test(t.slice(seenAfter.length));
    });
    await new Promise((r) => setTimeout(r, 400));
    const st = await cri.runtime.ContainerStatus({ container_id: first });
    assert.equal(await rotateIfNeeded(cri, first, st.status?.log_path ?? '', { maxSize: 1, maxFiles: 2 }), true);
    rotated = true;
    const result = await followed;
    const ticks = [...result.text.matchAll(/tick (\d+)/g)].map((m) => Number(m[1]));
    assert.ok(ticks.length >= 3, result.text);
    // Lines stay in order and none repeat across the rotation.
    for (let i = 1; i < ticks.length; i++) assert.equal(ticks[i], (ticks[i - 1] as number) + 1, result.text);
  });

  it('reads the previous instance once another runs, and ends a follow when the container stops', async () => {
    const firstId = String(statuses[0]?.containerID).slice('containerd://'.length);
    await cri.runtime.StopContainer({ container_id: firstId, timeout: 0 });
    const second = await startInstance(1, 'echo second instance; sleep 0.5; echo bye');
    statuses.splice(0, statuses.length, { name: 'app', containerID: `containerd://${second}`, state: { running: {} }, lastState: { terminated: { exitCode: 137, containerID: `containerd://${firstId}` } }, restartCount: 1 });
    const previous = await get('/containerLogs/default/talker/app?previous=true&tailLines=1');
    assert.match(previous.text, /^tick \d+\n$/);
    // The follow ends by itself once the second instance exits.
    const followed = await get('/containerLogs/default/talker/app?follow=true');
    assert.equal(followed.text, 'second instance\nbye\n');
  });
});
