/**
 * The pod workers against a real containerd (hack/local-containerd.ts) and a real API server: pods
 * bound to the node are fed to createPodWorkers from a watch (the pod sources are another part's),
 * with a small in-test probe manager. A busybox pod runs with a pod IP; env vars and configMap,
 * secret, downwardAPI and projected token volumes are visible inside; init containers run first;
 * a crashing container goes into CrashLoopBackOff with a growing restartCount; a deleted pod stops
 * within its grace period and disappears; a missing image gives ErrImagePull then ImagePullBackOff
 * with the runtime's message; a missing ConfigMap key gives CreateContainerConfigError.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { busyboxImage, startContainerd, type LocalContainerd } from '../../hack/local-containerd.js';
import type { KubeObject } from '../../api/meta/types.js';
import { ApiClient } from '../../internal/nodeagent/client/api-client.js';
import type { AgentContext, PodSyncHandler, ProbeManager, Stoppable } from '../../internal/nodeagent/interface.js';
import { defaultNodeAgentConfig } from '../../internal/nodeagent/options/defaults.js';
import { createPodWorkers } from '../../internal/nodeagent/pods/workers.js';
import { connectCri, type CriClient } from '../../internal/nodeagent/runtime/cri-client.js';
import { createLogger } from '../../internal/observability/logging.js';
import { useServer } from '../support/server.js';
import { serviceAccountFlags, writeSigningKey } from '../support/service-accounts.js';

const nodeName = 'pods-node';
const ns = 'pods';
const fx = useServer({}, async () => serviceAccountFlags(await writeSigningKey()));

/** A probe manager for tests: everything ready and started; records the calls; failures on demand. */
class TestProbes implements ProbeManager {
  readonly started: Array<{ uid: string; name: string; id: string }> = [];
  readonly stopped: Array<{ uid: string; name: string }> = [];
  private failure: ((uid: string, name: string, id: string, message: string) => void) | undefined;
  isReady(): boolean {
    return true;
  }
  isStarted(): boolean {
    return true;
  }
  containerStarted(pod: KubeObject, name: string, id: string): void {
    this.started.push({ uid: pod.metadata.uid ?? '', name, id });
  }
  containerStopped(uid: string, name: string): void {
    this.stopped.push({ uid, name });
  }
  removePod(): void {}
  onFailure(h: (uid: string, name: string, id: string, message: string) => void): void {
    this.failure = h;
  }
  onChange(): void {}
  stop(): void {}
  fail(uid: string, name: string, id: string): void {
    this.failure?.(uid, name, id, `Container ${name} failed liveness probe`);
  }
}

let containerd: LocalContainerd;
let staticPod: KubeObject;
let cri: CriClient;
let client: ApiClient;
let workers: PodSyncHandler & Stoppable;
const probes = new TestProbes();
const events: Array<{ name: string; type: string; reason: string; message: string }> = [];
const abort = new AbortController();

function isMirror(pod: KubeObject): boolean {
  return pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined;
}

async function feed(): Promise<void> {
  // The API source in miniature: list+watch pods bound to the node.
  while (!abort.signal.aborted) {
    try {
      const list = await client.get<{ items: KubeObject[]; metadata: { resourceVersion: string } }>('/api/v1/pods', { query: { fieldSelector: `spec.nodeName=${nodeName}` } });
      for (const pod of list.items) if (!isMirror(pod)) workers.syncPod({ pod, source: 'api' });
      for await (const ev of client.watch('/api/v1/pods', { fieldSelector: `spec.nodeName=${nodeName}`, resourceVersion: list.metadata.resourceVersion }, abort.signal)) {
        if (isMirror(ev.object)) continue;
        if (ev.type === 'DELETED') workers.removePod(ev.object.metadata.uid ?? '');
        else if (ev.type === 'ADDED' || ev.type === 'MODIFIED') workers.syncPod({ pod: ev.object, source: 'api' });
      }
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function createPod(name: string, spec: Record<string, unknown>, labels: Record<string, string> = {}): Promise<KubeObject> {
  const res = await fx.request('POST', `/api/v1/namespaces/${ns}/pods`, { body: { metadata: { name, labels }, spec: { nodeName, terminationGracePeriodSeconds: 2, ...spec } } });
  assert.equal(res.status, 201, res.text);
  return res.json();
}

async function getPod(name: string): Promise<any> {
  const res = await fx.request('GET', `/api/v1/namespaces/${ns}/pods/${name}`);
  return res.status === 404 ? undefined : res.json();
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function exec(pod: any, container: string, cmd: string[]): Promise<string> {
  const status = [...(pod.status.containerStatuses ?? [])].find((s: any) => s.name === container);
  const id = String(status.containerID).replace('containerd://', '');
  const res = await cri.runtime.ExecSync({ container_id: id, cmd, timeout: 10 });
  assert.equal(res.exit_code ?? 0, 0, Buffer.from(res.stderr ?? []).toString());
  return Buffer.from(res.stdout ?? []).toString('utf8');
}

function ctxOf(): AgentContext {
  const dir = `/tmp/capstan-pods-${process.pid}`;
  return {
    config: { ...defaultNodeAgentConfig(), containerRuntimeEndpoint: containerd.endpoint, rootDir: join(dir, 'root'), podLogsDir: join(dir, 'logs'), clusterDNS: ['10.0.0.10'], clusterDomain: 'cluster.local', nodeIPs: ['192.0.2.7'] },
    nodeName,
    client,
    log: createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1'),
    cri,
    events: { event: (obj, type, reason, message) => events.push({ name: obj.metadata.name ?? '', type, reason, message }) },
    signal: abort.signal,
  };
}

const sleeper = { name: 'main', image: busyboxImage, imagePullPolicy: 'IfNotPresent', command: ['sleep', '3600'] };

describe('pod workers over containerd', () => {
  before(async () => {
    const dir = `/tmp/capstan-pods-${process.pid}`;
    containerd = await startContainerd(join(dir, 'containerd'));
    cri = connectCri(containerd.endpoint, 30_000);
    client = new ApiClient({ server: `https://127.0.0.1:${fx.port}`, ca: Buffer.from(fx.ca), tlsServerName: 'localhost' });
    workers = createPodWorkers(ctxOf(), { probes });
    assert.equal((await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status, 201);
    await fx.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { body: { metadata: { name: 'default' } } });
    await fx.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name: 'cm' }, data: { greeting: 'hello', 'app.conf': 'x=1\n' } } });
    await fx.request('POST', `/api/v1/namespaces/${ns}/secrets`, { body: { metadata: { name: 'sec' }, data: { password: Buffer.from('s3cret').toString('base64') } } });
    void feed();
    // Every pod at once: the tests below wait for their own.
    await createPod('web', {
      containers: [
        {
          ...sleeper,
          ports: [{ containerPort: 80 }],
          lifecycle: { preStop: { exec: { command: ['sh', '-c', 'echo bye > /host/prestop'] } } },
          volumeMounts: [{ name: 'mem', mountPath: '/mem' }, { name: 'host', mountPath: '/host' }],
        },
      ],
      volumes: [
        { name: 'mem', emptyDir: { medium: 'Memory', sizeLimit: '16Mi' } },
        { name: 'host', hostPath: { path: join(dir, 'web-host'), type: 'DirectoryOrCreate' } },
      ],
    }, { app: 'web' });
    await createPod('env', {
      containers: [
        {
          ...sleeper,
          env: [
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
            { name: 'HOST_IP', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
            { name: 'TIER', valueFrom: { fieldRef: { fieldPath: "metadata.labels['tier']" } } },
            { name: 'MEM_MI', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
            { name: 'GREETING', valueFrom: { configMapKeyRef: { name: 'cm', key: 'greeting' } } },
            { name: 'MISSING', valueFrom: { configMapKeyRef: { name: 'cm', key: 'nope', optional: true } } },
            { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'sec', key: 'password' } } },
            { name: 'COMBINED', value: '$(POD_NAME)-$(GREETING)-$(UNDEFINED)-$$(POD_NAME)' },
          ],
          envFrom: [{ prefix: 'CM_', configMapRef: { name: 'cm' } }],
          resources: { limits: { memory: '64Mi', cpu: '500m' } },
          volumeMounts: [
            { name: 'config', mountPath: '/etc/config' },
            { name: 'secret', mountPath: '/etc/secret', readOnly: true },
            { name: 'info', mountPath: '/etc/info' },
            { name: 'host', mountPath: '/host' },
          ],
        },
      ],
      volumes: [
        { name: 'config', configMap: { name: 'cm', items: [{ key: 'greeting', path: 'nested/greet.txt' }] } },
        { name: 'secret', secret: { secretName: 'sec', defaultMode: 0o400 } },
        { name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }, { path: 'name', fieldRef: { fieldPath: 'metadata.name' } }] } },
        { name: 'host', hostPath: { path: join(dir, 'hostpath-made'), type: 'DirectoryOrCreate' } },
      ],
    }, { tier: 'backend', app: 'env' });
    await createPod('init', {
      initContainers: [
        { name: 'first', image: busyboxImage, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'echo one >> /work/log'], volumeMounts: [{ name: 'work', mountPath: '/work' }] },
        { name: 'second', image: busyboxImage, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'echo two >> /work/log'], volumeMounts: [{ name: 'work', mountPath: '/work' }] },
      ],
      containers: [{ ...sleeper, volumeMounts: [{ name: 'work', mountPath: '/work' }] }],
      volumes: [{ name: 'work', emptyDir: {} }],
    });
    await createPod('crash', { containers: [{ name: 'crasher', image: busyboxImage, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'echo oops > /dev/termination-log; exit 3'] }] });
    await createPod('missing-image', { containers: [{ name: 'app', image: 'capstan.invalid/nothing:1', imagePullPolicy: 'IfNotPresent' }] });
    await createPod('bad-config', { containers: [{ ...sleeper, env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cm', key: 'absent' } } }] }] });
    await createPod('sidecar', {
      restartPolicy: 'Never',
      initContainers: [
        { name: 'side', restartPolicy: 'Always', image: busyboxImage, imagePullPolicy: 'IfNotPresent', command: ['sleep', '3600'] },
        { name: 'setup', image: busyboxImage, imagePullPolicy: 'IfNotPresent', command: ['true'] },
      ],
      containers: [{ name: 'job', image: busyboxImage, imagePullPolicy: 'IfNotPresent', command: ['sleep', '2'] }],
    });
    await createPod('live', { containers: [sleeper] });
    await createPod('evictee', { containers: [sleeper] });
    await createPod('adopted', { containers: [sleeper] });
    await createPod('deadline', { activeDeadlineSeconds: 3, containers: [sleeper] });
    // A static pod (as the file source gives it) whose status goes to its mirror pod.
    const mirror = (
      await fx.request('POST', `/api/v1/namespaces/${ns}/pods`, {
        body: { metadata: { name: `static-${nodeName}`, annotations: { 'kubernetes.io/config.mirror': 'h1', 'kubernetes.io/config.source': 'file' } }, spec: { nodeName, containers: [sleeper] } },
      })
    ).json();
    staticPod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: `static-${nodeName}`, namespace: ns, uid: 'a3c5e7f9-static-pod-uid', annotations: { 'kubernetes.io/config.source': 'file', 'kubernetes.io/config.hash': 'h1' } }, spec: { nodeName, containers: [sleeper], terminationGracePeriodSeconds: 2 } };
    workers.syncPod({ pod: staticPod, source: 'file', mirror });
    await createPod('done', { restartPolicy: 'Never', containers: [{ name: 'once', image: busyboxImage, imagePullPolicy: 'IfNotPresent', command: ['echo', 'hello-log'] }] });
  });

  after(async () => {
    abort.abort();
    await workers?.stop();
    cri?.close();
    client?.close();
    await containerd?.stop();
    await rm(`/tmp/capstan-pods-${process.pid}`, { recursive: true, force: true });
  });

  it('runs a busybox pod: Running with a pod IP from the bridge, Ready, kubelet status shapes and events', async () => {
    const pod = await waitFor('web Running', async () => {
      const p = await getPod('web');
      return p?.status?.phase === 'Running' && p.status.containerStatuses?.[0]?.ready && p;
    });
    const prefix = containerd.podCIDR.split('.').slice(0, 3).join('.') + '.';
    assert.ok(String(pod.status.podIP).startsWith(prefix), `pod IP ${pod.status.podIP} in ${containerd.podCIDR}`);
    assert.deepEqual(pod.status.podIPs, [{ ip: pod.status.podIP }]);
    assert.equal(pod.status.hostIP, '192.0.2.7');
    assert.equal(pod.status.qosClass, 'BestEffort');
    assert.ok(pod.status.startTime);
    const conds = Object.fromEntries(pod.status.conditions.map((c: any) => [c.type, c.status]));
    assert.deepEqual(conds, { PodReadyToStartContainers: 'True', Initialized: 'True', Ready: 'True', ContainersReady: 'True', PodScheduled: 'True' });
    const cs = pod.status.containerStatuses[0];
    assert.match(cs.containerID, /^containerd:\/\/[0-9a-f]{64}$/);
    assert.equal(cs.restartCount, 0);
    assert.equal(cs.started, true);
    assert.ok(cs.state.running.startedAt);
    assert.equal(cs.image, busyboxImage);
    assert.ok(cs.imageID);
    // The sandbox as kubelet makes it: labels, hostname, DNS.
    const { items = [] } = await cri.runtime.ListPodSandbox({ filter: { label_selector: { 'io.kubernetes.pod.uid': pod.metadata.uid } } });
    assert.equal(items.length, 1);
    assert.equal(items[0]!.labels?.['io.kubernetes.pod.name'], 'web');
    assert.equal(items[0]!.labels?.app, 'web');
    assert.equal((await exec(pod, 'main', ['hostname'])).trim(), 'web');
    const resolv = await exec(pod, 'main', ['cat', '/etc/resolv.conf']);
    assert.match(resolv, /nameserver 10\.0\.0\.10/);
    assert.match(resolv, /search pods\.svc\.cluster\.local svc\.cluster\.local cluster\.local/);
    assert.match(resolv, /options ndots:5/);
    assert.match(await exec(pod, 'main', ['grep', ' /mem ', '/proc/mounts']), /^tmpfs \/mem tmpfs .*size=16384k/);
    assert.match(await exec(pod, 'main', ['cat', '/etc/hosts']), new RegExp(`${pod.status.podIP.replace(/\./g, '\\.')}\\tweb`));
    // Written once, as kubelet writes it: later syncs of the pod leave the mounted file alone.
    const hostsFile = `/tmp/capstan-pods-${process.pid}/root/pods/${pod.metadata.uid}/etc-hosts`;
    const before = await stat(hostsFile);
    workers.syncPod({ pod: await getPod('web'), source: 'api' });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await stat(hostsFile)).mtimeMs, before.mtimeMs, 'etc-hosts was not rewritten by a later sync');
    const mine = events.filter((e) => e.name === 'web').map((e) => `${e.reason}: ${e.message}`);
    assert.ok(mine.includes(`Pulled: Container image "${busyboxImage}" already present on machine`), mine.join('\n'));
    assert.ok(mine.includes('Created: Created container: main'), mine.join('\n'));
    assert.ok(mine.includes('Started: Started container main'), mine.join('\n'));
    assert.ok(probes.started.some((s) => s.uid === pod.metadata.uid && s.name === 'main' && cs.containerID.endsWith(s.id)));
  });

  it('gives env vars from fieldRef, resourceFieldRef, ConfigMap and Secret, and mounts configMap, secret, downwardAPI, hostPath and the token', async () => {
    const pod = await waitFor('env Running', async () => {
      const p = await getPod('env');
      return p?.status?.phase === 'Running' && p;
    });
    const env = Object.fromEntries(
      (await exec(pod, 'main', ['env']))
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    assert.equal(env.POD_NAME, 'env');
    assert.equal(env.POD_IP, pod.status.podIP);
    assert.equal(env.HOST_IP, '192.0.2.7');
    assert.equal(env.TIER, 'backend');
    assert.equal(env.MEM_MI, '64');
    assert.equal(env.GREETING, 'hello');
    assert.equal(env.MISSING, undefined);
    assert.equal(env.PASSWORD, 's3cret');
    assert.equal(env.COMBINED, 'env-hello-$(UNDEFINED)-$(POD_NAME)');
    assert.equal(env.CM_greeting, 'hello');
    assert.equal(await exec(pod, 'main', ['cat', '/etc/config/nested/greet.txt']), 'hello');
    assert.equal(await exec(pod, 'main', ['cat', '/etc/secret/password']), 's3cret');
    assert.equal((await exec(pod, 'main', ['stat', '-L', '-c', '%a', '/etc/secret/password'])).trim(), '400');
    assert.match(await exec(pod, 'main', ['ls', '-a', '/etc/config']), /\.\.data/);
    assert.equal(await exec(pod, 'main', ['cat', '/etc/info/labels']), 'app="env"\ntier="backend"');
    assert.equal(await exec(pod, 'main', ['cat', '/etc/info/name']), 'env');
    // The ServiceAccount admission plugin's projected volume: a token bound to this pod.
    const token = await exec(pod, 'main', ['cat', '/var/run/secrets/kubernetes.io/serviceaccount/token']);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
    assert.equal(claims['kubernetes.io'].pod.uid, pod.metadata.uid);
    assert.equal((await exec(pod, 'main', ['cat', '/var/run/secrets/kubernetes.io/serviceaccount/namespace'])), ns);
    assert.equal(pod.status.qosClass, 'Guaranteed');
    // Resources as cgroup limits: 500m cpu -> quota 50000 of 100000; 64Mi memory.
    const sc = await cri.runtime.ContainerStatus({ container_id: pod.status.containerStatuses[0].containerID.replace('containerd://', '') });
    assert.equal(Number(sc.status?.resources?.linux?.cpu_quota), 50000);
    assert.equal(Number(sc.status?.resources?.linux?.memory_limit_in_bytes), 64 * 1024 * 1024);
  });

  it('runs init containers first, in order, and reports them Completed', async () => {
    const pod = await waitFor('init Running', async () => {
      const p = await getPod('init');
      return p?.status?.phase === 'Running' && p;
    });
    assert.equal(await exec(pod, 'main', ['cat', '/work/log']), 'one\ntwo\n');
    assert.deepEqual(
      pod.status.initContainerStatuses.map((s: any) => [s.name, s.state.terminated?.reason, s.state.terminated?.exitCode]),
      [
        ['first', 'Completed', 0],
        ['second', 'Completed', 0],
      ],
    );
  });

  it('restarts a crashing container with a growing restartCount and CrashLoopBackOff', async () => {
    const pod = await waitFor(
      'crash in CrashLoopBackOff after a restart',
      async () => {
        const p = await getPod('crash');
        const cs = p?.status?.containerStatuses?.[0];
        return cs?.restartCount >= 1 && cs.state.waiting?.reason === 'CrashLoopBackOff' && p;
      },
      30_000,
    );
    const cs = pod.status.containerStatuses[0];
    assert.equal(cs.state.waiting.message, `back-off 10s restarting failed container=crasher pod=crash_${ns}(${pod.metadata.uid})`);
    assert.equal(cs.lastState.terminated.exitCode, 3);
    assert.equal(cs.lastState.terminated.reason, 'Error');
    assert.equal(cs.lastState.terminated.message, 'oops\n');
    assert.equal(pod.status.phase, 'Running');
    assert.ok(events.some((e) => e.name === 'crash' && e.reason === 'BackOff' && e.message === `Back-off restarting failed container crasher in pod crash_${ns}(${pod.metadata.uid})`));
    // After the 10 s back-off it runs again: the count grows.
    await waitFor('a second restart', async () => (await getPod('crash'))?.status?.containerStatuses?.[0]?.restartCount >= 2, 20_000);
  });

  it('reports a missing image as ErrImagePull, then ImagePullBackOff, with the runtime message', async () => {
    const pulled = await waitFor('ErrImagePull', async () => {
      const s = (await getPod('missing-image'))?.status?.containerStatuses?.[0];
      return s?.state?.waiting?.reason === 'ErrImagePull' && s;
    });
    assert.match(pulled.state.waiting.message, /^rpc error: code = \w+ desc = failed to pull and unpack image "capstan\.invalid\/nothing:1"/);
    const backoff = await waitFor('ImagePullBackOff', async () => {
      const s = (await getPod('missing-image'))?.status?.containerStatuses?.[0];
      return s?.state?.waiting?.reason === 'ImagePullBackOff' && s;
    });
    assert.match(backoff.state.waiting.message, /^Back-off pulling image "capstan\.invalid\/nothing:1": ErrImagePull: rpc error: code = \w+ desc = failed to pull and unpack image/);
    const mine = events.filter((e) => e.name === 'missing-image');
    assert.ok(mine.some((e) => e.reason === 'Pulling' && e.message === 'Pulling image "capstan.invalid/nothing:1"'));
    assert.ok(mine.some((e) => e.reason === 'Failed' && e.type === 'Warning' && e.message.startsWith('Failed to pull image "capstan.invalid/nothing:1": rpc error')));
    assert.ok(mine.some((e) => e.reason === 'Failed' && e.message === 'Error: ErrImagePull'));
    assert.ok(mine.some((e) => e.reason === 'BackOff' && e.message === 'Back-off pulling image "capstan.invalid/nothing:1"'));
    assert.equal((await getPod('missing-image')).status.phase, 'Pending');
  });

  it("reports a missing ConfigMap key as CreateContainerConfigError with kubelet's message", async () => {
    const s = await waitFor('CreateContainerConfigError', async () => {
      const cs = (await getPod('bad-config'))?.status?.containerStatuses?.[0];
      return cs?.state?.waiting?.reason === 'CreateContainerConfigError' && cs;
    });
    assert.equal(s.state.waiting.message, `couldn't find key absent in ConfigMap ${ns}/cm`);
  });

  it('completes a restartPolicy Never pod as Succeeded', async () => {
    const pod = await waitFor('done Succeeded', async () => {
      const p = await getPod('done');
      return p?.status?.phase === 'Succeeded' && p;
    });
    assert.equal(pod.status.containerStatuses[0].state.terminated.reason, 'Completed');
    const ready = pod.status.conditions.find((c: any) => c.type === 'Ready');
    assert.deepEqual([ready.status, ready.reason], ['False', 'PodCompleted']);
    // Its output in the CRI log file kubelet's layout names: <podLogsDir>/<ns>_<name>_<uid>/<container>/<restartCount>.log.
    const log = await readFile(`/tmp/capstan-pods-${process.pid}/logs/${ns}_done_${pod.metadata.uid}/once/0.log`, 'utf8');
    assert.match(log, /^\S+ stdout F hello-log\n$/);
  });

  it('starts a sidecar before the next init container, and stops it once the job finished', async () => {
    const pod = await waitFor('sidecar Succeeded', async () => {
      const p = await getPod('sidecar');
      return p?.status?.phase === 'Succeeded' && p;
    });
    const [side, setup] = pod.status.initContainerStatuses;
    assert.equal(side.name, 'side');
    assert.ok(side.state.terminated, JSON.stringify(side));
    assert.equal(setup.state.terminated.reason, 'Completed');
    assert.ok(Date.parse(side.state.terminated.startedAt) <= Date.parse(setup.state.terminated.startedAt));
    assert.equal(pod.status.containerStatuses[0].state.terminated.exitCode, 0);
    // The sidecar was stopped after the job ended, not before.
    assert.ok(Date.parse(side.state.terminated.finishedAt) >= Date.parse(pod.status.containerStatuses[0].state.terminated.finishedAt));
  });

  it('restarts a container whose liveness probe failed', async () => {
    const pod = await waitFor('live Running', async () => {
      const p = await getPod('live');
      return p?.status?.phase === 'Running' && p.status.containerStatuses?.[0]?.state?.running && p;
    });
    const id = pod.status.containerStatuses[0].containerID.replace('containerd://', '');
    probes.fail(pod.metadata.uid, 'main', id);
    const after = await waitFor('live restarted', async () => {
      const p = await getPod('live');
      const cs = p?.status?.containerStatuses?.[0];
      return cs?.restartCount === 1 && cs.state.running && p;
    }, 20_000);
    const cs = after.status.containerStatuses[0];
    assert.notEqual(cs.containerID, pod.status.containerStatuses[0].containerID);
    assert.equal(cs.lastState.terminated.exitCode, 137);
    assert.ok(events.some((e) => e.name === 'live' && e.reason === 'Killing' && e.message === 'Container main failed liveness probe, will be restarted'));
  });

  it('evicts a pod: stopped, phase Failed with reason Evicted and the message', async () => {
    const pod = await waitFor('evictee Running', async () => {
      const p = await getPod('evictee');
      return p?.status?.phase === 'Running' && p;
    });
    await workers.evictPod(pod.metadata.uid, 'The node was low on resource: memory.', 0);
    const evicted = await waitFor('evictee Failed', async () => {
      const p = await getPod('evictee');
      return p?.status?.phase === 'Failed' && p;
    });
    assert.equal(evicted.status.reason, 'Evicted');
    assert.equal(evicted.status.message, 'The node was low on resource: memory.');
    assert.ok(evicted.status.containerStatuses[0].state.terminated);
    const { items = [] } = await cri.runtime.ListPodSandbox({ filter: { label_selector: { 'io.kubernetes.pod.uid': pod.metadata.uid } } });
    assert.deepEqual(items.map((s) => s.state), ['SANDBOX_NOTREADY']);
  });

  it('fails a pod past its activeDeadlineSeconds with reason DeadlineExceeded', async () => {
    const pod = await waitFor('deadline Failed', async () => {
      const p = await getPod('deadline');
      return p?.status?.phase === 'Failed' && p;
    }, 20_000);
    assert.deepEqual([pod.status.reason, pod.status.message], ['DeadlineExceeded', 'Pod was active on the node longer than the specified deadline']);
    assert.ok(events.some((e) => e.name === 'deadline' && e.reason === 'DeadlineExceeded'));
  });

  it('adopts what the runtime runs for known pods after a restart, and removes pods no source knows', async () => {
    const pod = await waitFor('adopted Running', async () => {
      const p = await getPod('adopted');
      return p?.status?.phase === 'Running' && p;
    });
    // A sandbox of a pod nobody wants, as a previous run might have left it.
    const orphan = await cri.runtime.RunPodSandbox({
      config: { metadata: { name: 'ghost', namespace: ns, uid: 'ghost-uid', attempt: 0 }, labels: { 'io.kubernetes.pod.uid': 'ghost-uid', 'io.kubernetes.pod.name': 'ghost', 'io.kubernetes.pod.namespace': ns }, log_directory: `/tmp/capstan-pods-${process.pid}/ghost`, linux: {} },
    });
    await workers.stop();
    workers = createPodWorkers(ctxOf(), { probes, orphanGraceMs: 2000 });
    const all = (await fx.request('GET', `/api/v1/namespaces/${ns}/pods`)).json().items as KubeObject[];
    for (const p of all) if (!isMirror(p)) workers.syncPod({ pod: p, source: 'api' });
    workers.syncPod({ pod: staticPod, source: 'file', mirror: all.find(isMirror)! });
    await new Promise((r) => setTimeout(r, 2000));
    const again = await getPod('adopted');
    assert.equal(again.status.containerStatuses[0].containerID, pod.status.containerStatuses[0].containerID);
    assert.equal(again.status.containerStatuses[0].restartCount, 0);
    await waitFor('the orphan removed', async () => {
      const { items = [] } = await cri.runtime.ListPodSandbox({ filter: { id: orphan.pod_sandbox_id ?? '' } });
      return items.length === 0;
    }, 20_000);
  });

  it("runs a static pod and writes its status to the mirror pod; removing it stops it", async () => {
    const mirror = await waitFor('mirror Running', async () => {
      const p = await getPod(`static-${nodeName}`);
      return p?.status?.phase === 'Running' && p;
    });
    assert.ok(mirror.status.podIP);
    const { items = [] } = await cri.runtime.ListPodSandbox({ filter: { label_selector: { 'io.kubernetes.pod.uid': staticPod.metadata.uid! } } });
    assert.equal(items.length, 1);
    workers.removePod(staticPod.metadata.uid!);
    await waitFor('static pod removed from the runtime', async () => {
      const { items = [] } = await cri.runtime.ListPodSandbox({ filter: { label_selector: { 'io.kubernetes.pod.uid': staticPod.metadata.uid! } } });
      return items.length === 0;
    }, 15_000);
    // The sandbox goes before the worker forgets the pod (it finishes its removal after that).
    await waitFor('the worker to forget the static pod', async () => !workers.findPod(ns, `static-${nodeName}`), 5000);
  });

  it('stops a deleted pod within its grace period and deletes it from the API server', async () => {
    const pod = await waitFor('web Running', async () => {
      const p = await getPod('web');
      return p?.status?.phase === 'Running' && p;
    });
    const started = Date.now();
    const res = await fx.request('DELETE', `/api/v1/namespaces/${ns}/pods/web`);
    assert.equal(res.status, 200, res.text);
    // sleep as PID 1 ignores SIGTERM: the runtime kills it when the 2 s grace period ends.
    await waitFor('web gone', async () => (await getPod('web')) === undefined, 15_000);
    const took = Date.now() - started;
    assert.ok(took >= 1500 && took < 10_000, `stopped in ${took} ms`);
    const { items = [] } = await cri.runtime.ListPodSandbox({ filter: { label_selector: { 'io.kubernetes.pod.uid': pod.metadata.uid } } });
    assert.equal(items.length, 0);
    assert.ok(events.some((e) => e.name === 'web' && e.reason === 'Killing' && e.message === 'Stopping container main'));
    // The preStop hook ran before the container stopped; the memory-backed emptyDir is unmounted.
    assert.equal(await readFile(`/tmp/capstan-pods-${process.pid}/web-host/prestop`, 'utf8'), 'bye\n');
    assert.ok(!(await readFile('/proc/self/mounts', 'utf8')).includes(pod.metadata.uid), 'no mount of the pod is left');
    assert.ok(probes.stopped.some((s) => s.uid === pod.metadata.uid && s.name === 'main'));
  });
});
