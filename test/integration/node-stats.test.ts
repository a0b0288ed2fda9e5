/**
 * The Summary and image garbage collection against a containerd of the test's own: a pod sandbox
 * with a running busybox container (made directly over CRI) appears in the Summary with its
 * container's CPU, memory, writable layer and logs; image GC never removes an image in use nor the
 * sandbox image, and removes unused ones once the image filesystem is past the high threshold.
 */
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { busyboxImage, pauseImage, startContainerd, type LocalContainerd } from '../../hack/local-containerd.js';
import { ImageGC } from '../../internal/nodeagent/node/image-gc.js';
import { defaultNodeAgentConfig } from '../../internal/nodeagent/options/defaults.js';
import { connectCri, type CriClient } from '../../internal/nodeagent/runtime/cri-client.js';
import { createSummaryProvider } from '../../internal/nodeagent/stats/summary.js';
import { createLogger } from '../../internal/observability/logging.js';
import { fixedPods, recordingEvents } from '../support/node-status-context.js';
import { ApiClient } from '../../internal/nodeagent/client/api-client.js';

describe('node stats and image GC', () => {
  let containerd: LocalContainerd;
  let cri: CriClient;
  let rootDir: string;
  let sandboxId = '';
  let containerId = '';
  const uid = '11111111-2222-3333-4444-555555555555';
  const log = createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1');

  before(async () => {
    containerd = await startContainerd(`/tmp/capstan-node-stats-${process.pid}`);
    cri = connectCri(containerd.endpoint, 30_000);
    rootDir = await mkdtemp(join(tmpdir(), 'capstan-node-stats-root-'));
    const logDir = join(rootDir, 'logs', `default_stats_${uid}`);
    await mkdir(logDir, { recursive: true });
    const sandboxConfig = { metadata: { name: 'stats', namespace: 'default', uid, attempt: 0 }, log_directory: logDir, linux: {} };
    sandboxId = (await cri.runtime.RunPodSandbox({ config: sandboxConfig })).pod_sandbox_id ?? '';
    containerId =
      (
        await cri.runtime.CreateContainer({
          pod_sandbox_id: sandboxId,
          config: { metadata: { name: 'app', attempt: 0 }, image: { image: busyboxImage }, command: ['sh', '-c', 'echo hello; while :; do :; done'], log_path: 'app/0.log', linux: {} },
          sandbox_config: sandboxConfig,
        })
      ).container_id ?? '';
    await cri.runtime.StartContainer({ container_id: containerId });
    // An emptyDir volume of the pod, as the pod workers lay them out.
    const vol = join(rootDir, 'pods', uid, 'volumes', 'kubernetes.io~empty-dir', 'cache');
    await mkdir(vol, { recursive: true });
    await writeFile(join(vol, 'data'), Buffer.alloc(64 * 1024, 1));
  });
  after(async () => {
    cri?.close();
    await containerd?.stop();
    if (rootDir) await rm(rootDir, { recursive: true, force: true });
  });

  it('reports the node and the running pod', async () => {
    const config = { ...defaultNodeAgentConfig(), rootDir };
    const ctx = { config, nodeName: 'n1', client: new ApiClient({ server: 'https://127.0.0.1:1' }), log, cri, events: recordingEvents(), signal: new AbortController().signal };
    const provider = createSummaryProvider(ctx, fixedPods());
    await provider.summary();
    await new Promise((r) => setTimeout(r, 300));
    const s = (await provider.summary()) as any;
    assert.equal(s.node.nodeName, 'n1');
    assert.ok(s.node.cpu.usageCoreNanoSeconds > 0);
    assert.ok(s.node.memory.workingSetBytes > 0 && s.node.memory.availableBytes > 0);
    assert.ok(s.node.fs.capacityBytes > 0 && s.node.fs.inodes > 0);
    assert.ok(s.node.runtime.imageFs.capacityBytes > 0);
    assert.ok(s.node.rlimit.maxpid > s.node.rlimit.curproc);
    assert.deepEqual(s.node.systemContainers.map((c: any) => c.name), ['kubelet', 'pods']);
    const pod = s.pods.find((p: any) => p.podRef.uid === uid);
    assert.ok(pod, JSON.stringify(s.pods));
    assert.deepEqual(pod.podRef, { name: 'stats', namespace: 'default', uid });
    const app = pod.containers.find((c: any) => c.name === 'app');
    assert.ok(app.cpu.usageCoreNanoSeconds > 0, JSON.stringify(app));
    // The busy loop uses CPU: a rate of at least a tenth of a core between the two calls.
    assert.ok(app.cpu.usageNanoCores > 100_000_000, JSON.stringify(app.cpu));
    assert.ok(app.memory.workingSetBytes > 0);
    assert.ok(app.rootfs.capacityBytes > 0);
    assert.ok(app.logs.usedBytes > 0, JSON.stringify(app.logs));
    assert.equal(pod.volume[0].name, 'cache');
    assert.ok(pod.volume[0].usedBytes >= 64 * 1024);
    assert.ok(pod['ephemeral-storage'].usedBytes >= pod.volume[0].usedBytes + app.logs.usedBytes);
  });

  it('image GC keeps images in use and the sandbox image, and removes unused ones past the high threshold', async () => {
    const events = recordingEvents();
    // A full image filesystem: 95% used, so the collector wants 15% of it back (down to 80%).
    const gc = new ImageGC({ cri, config: { imageGCHighThresholdPercent: 85, imageGCLowThresholdPercent: 80 }, log, events, nodeName: 'n1', imageFs: async () => ({ capacityBytes: 1_000_000, availableBytes: 50_000 }) });
    await assert.rejects(gc.garbageCollect(), /Failed to garbage collect required amount of images. Attempted to free 150000 bytes, but only found 0 bytes eligible to free./);
    assert.equal(events.recorded[0]?.reason, 'FreeDiskSpaceFailed');
    const names = async () => ((await cri.image.ListImages({})).images ?? []).flatMap((i) => i.repo_tags ?? []);
    assert.ok((await names()).includes(busyboxImage));

    await cri.runtime.StopPodSandbox({ pod_sandbox_id: sandboxId });
    await cri.runtime.RemovePodSandbox({ pod_sandbox_id: sandboxId });
    await gc.garbageCollect();
    const left = await names();
    assert.ok(!left.includes(busyboxImage), left.join(' '));
    assert.ok(left.includes(pauseImage), left.join(' '));
  });
});
