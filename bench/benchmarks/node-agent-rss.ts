/**
 * node-agent: the node agent's resident memory with 10 running pods. An API server child secured as
 * a cluster is (client certificates, Node,RBAC, NodeRestriction, service account tokens, the
 * --kubelet-client-* flags), a containerd of its own (hack/local-containerd.ts) and the node agent
 * as a child process (dist/cmd/nodeagent/main.js, system:node:<name>); 10 busybox pods bound to the
 * node by spec.nodeName. Once all 10 are Running, the agent's VmRSS from /proc/<pid>/status is
 * sampled every 500 ms for 10 s while it keeps them (status syncs, probes of none, lease renewals) and
 * the highest sample is the figure; the agent runs with nodeAgentExecArgv (V8's lite mode, 1 MB semi-spaces) as
 * `make run-node` runs it, and again with V8's defaults for a note. Baseline, in the same run: an idle Node.js process (the least any
 * agent on this runtime costs). Target: <= 80 MB (k3s's agent needs about 275 MB). Needs root.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { busyboxImage, startContainerd, type LocalContainerd } from '../../hack/local-containerd.js';
import { freePort } from '../../hack/local-etcd.js';
import { nodeAgentExecArgv, startNodeAgent, writeKubeletClientPki, writeNodeAgentFiles, type KubeletClientPki, type NodeAgentProcess } from '../../hack/local-node.js';
import { createCertificateAuthority, issueCertificate, type CertificateAuthority } from '../../internal/server/pki.js';
import { newClient, ServerFailure, type Client } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { failedResult, result, type BenchResult, type Target } from '../results.js';
import { processCpuMs } from '../server-cpu.js';
import { ratio } from '../stats.js';

const pods = 10;
const targetBytes = 80e6;
const target: Target = { on: 'value', op: '<=', threshold: targetBytes, text: '<= 80 MB (k3s agent ~275 MB)' };
const name = `node agent RSS ${pods} pods`;

/** VmRSS and VmHWM of pid in bytes. */
async function memoryOf(pid: number): Promise<{ rss: number; hwm: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** Polls fn until it returns true; throws ServerFailure(what()) past timeoutMs. */
async function until(fn: () => Promise<boolean>, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new ServerFailure(what());
    await sleep(250);
  }
}

/** RSS of an idle Node.js process (a timer keeps it alive), after it settled. */
async function idleNodeRss(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  try {
    await sleep(1500);
    return (await memoryOf(child.pid ?? -1)).rss;
  } finally {
    child.kill('SIGKILL');
  }
}

function pod(podName: string, nodeName: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `rss-${podName}` },
    spec: { nodeName, terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: busyboxImage, imagePullPolicy: 'Never', command: ['sleep', '3600'] }] },
  };
}

async function runningCount(client: Client, nodeName: string): Promise<number> {
  const r = await client.call('GET', `/api/v1/namespaces/default/pods?fieldSelector=spec.nodeName%3D${nodeName}`);
  const items = (JSON.parse(r.body.toString()) as { items?: { status?: { phase?: string; podIP?: string } }[] }).items ?? [];
  return items.filter((p) => p.status?.phase === 'Running' && p.status.podIP).length;
}

interface Measurement {
  readonly rss: number;
  readonly hwm: number;
  readonly idleRss: number;
  readonly samples: number[];
  readonly allRunningMs: number;
  /** The agent's CPU (user + system) over the 10 s sampling window, in ms. */
  readonly steadyCpuMs: number;
}

/**
 * One agent run under execArgv: a containerd and a node of their own, 10 pods bound to it, the
 * agent's RSS sampled once all run; everything but the API server stopped afterwards.
 */
async function measureAgent(
  ctx: BenchContext,
  setup: { client: Client; port: number; ca: string; clientCA: CertificateAuthority; pki: KubeletClientPki; dir: string },
  label: string,
  execArgv: readonly string[],
): Promise<Measurement> {
  const { client } = setup;
  let containerd: LocalContainerd | undefined;
  let agent: NodeAgentProcess | undefined;
  try {
    containerd = await startContainerd(`/tmp/capstan-bench-${label}-${process.pid}`);
    const nodeName = `bench-${label}-${process.pid}`;
    const files = await writeNodeAgentFiles({
      dir: join(setup.dir, label),
      nodeName,
      server: `https://127.0.0.1:${setup.port}`,
      serverCA: setup.ca,
      clientCA: setup.clientCA,
      pki: setup.pki,
      runtimeEndpoint: containerd.endpoint,
      port: await freePort(),
      healthzPort: await freePort(),
    });
    const started = performance.now();
    const running = startNodeAgent(files.args, { execArgv });
    agent = running;
    const said = (): string => running.output().trim().split('\n').slice(-10).join('\n');
    await until(async () => (await client.call('GET', `/api/v1/nodes/${nodeName}`)).status === 200, 30_000, () => `node ${nodeName} not registered in 30 s; agent:\n${said()}`);
    const idle = await memoryOf(running.pid);
    for (let i = 0; i < pods; i++) {
      const r = await client.call('POST', '/api/v1/namespaces/default/pods', pod(`${label}-${i}`, nodeName));
      if (r.status !== 201) throw new ServerFailure(`POST pod ${label}-${i}: ${r.status} ${r.body.toString().slice(0, 300)}`);
    }
    await until(async () => (await runningCount(client, nodeName)) === pods, 120_000, () => `${pods} pods not Running in 120 s; agent:\n${said()}`);
    const allRunningMs = performance.now() - started;
    ctx.log(`node-agent (${label}, ${execArgv.join(' ') || 'no V8 flags'}): ${pods} pods Running ${(allRunningMs / 1000).toFixed(1)} s after the agent started; sampling its RSS for 10 s`);
    const samples: number[] = [];
    const cpuBefore = processCpuMs(running.pid);
    for (let i = 0; i < 20; i++) {
      samples.push((await memoryOf(running.pid)).rss);
      await sleep(500);
    }
    const steadyCpuMs = processCpuMs(running.pid) - cpuBefore;
    const { hwm } = await memoryOf(running.pid);
    return { rss: Math.max(...samples), hwm, idleRss: idle.rss, samples, allRunningMs, steadyCpuMs };
  } finally {
    await agent?.stop();
    await containerd?.stop();
  }
}

/** Runs the node agent RSS benchmark. */
export async function nodeAgentRssBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  if (process.getuid?.() !== 0) return [failedResult(name, 'skipped', 'the node agent needs root (containerd, runc, the CNI bridge)', target)];
  const dir = await mkdtemp(join(tmpdir(), 'capstan-bench-node-'));
  try {
    const clientCA = await createCertificateAuthority('bench-node-client-ca');
    const caFile = join(dir, 'client-ca.crt');
    await writeFile(caFile, clientCA.certPem);
    const admin = await issueCertificate(clientCA, { commonName: 'bench-admin', organizations: ['system:masters'], usage: 'client' });
    const pki = await writeKubeletClientPki(join(dir, 'apiserver-pki'), clientCA);
    const saKey = join(dir, 'sa.key');
    await writeFile(saKey, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }) as string);
    const flags = [
      `--client-ca-file=${caFile}`,
      '--authorization-mode=Node,RBAC',
      '--enable-admission-plugins=NodeRestriction',
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${saKey}`,
      `--service-account-signing-key-file=${saKey}`,
      ...pki.apiServerFlags,
    ];
    return await withServer(await ctx.apiServer(undefined, flags), async (server) => {
      const client = newClient(server.port, server.ca, 8, admin);
      try {
        await until(async () => (await client.call('GET', '/api/v1/namespaces/default/serviceaccounts/default')).status === 200, 20_000, () => 'no default ServiceAccount in 20 s');
        const setup = { client, port: server.port, ca: server.ca, clientCA, pki, dir };
        // As make run-node, the tests and this row run it, then with V8's default heap flags.
        const tuned = await measureAgent(ctx, setup, 'tuned', nodeAgentExecArgv);
        const plain = await measureAgent(ctx, setup, 'plain', []);
        const baseline = await idleNodeRss();
        return [
          result({
            name,
            measured: `${mb(tuned.rss)} max VmRSS`,
            baseline: `idle node ${mb(baseline)}`,
            value: tuned.rss,
            baselineValue: baseline,
            ratio: ratio(tuned.rss, baseline),
            target,
            figures: { execArgv: nodeAgentExecArgv, rssBytes: tuned.rss, samples: tuned.samples, peakVmHWMBytes: tuned.hwm, registeredIdleRssBytes: tuned.idleRss, idleNodeRssBytes: baseline, pods, allRunningMs: Math.round(tuned.allRunningMs), defaultV8Flags: plain },
            notes: [
              `run with ${nodeAgentExecArgv.join(' ')} (as make run-node runs it); peak (VmHWM) ${mb(tuned.hwm)}; ${mb(tuned.idleRss)} once registered with no pods; all ${pods} Running ${(tuned.allRunningMs / 1000).toFixed(1)} s after start; ${(tuned.steadyCpuMs / 10).toFixed(1)}% of a core while keeping them (${(plain.steadyCpuMs / 10).toFixed(1)}% with V8's defaults)`,
              `with V8's default flags: ${mb(plain.rss)} max VmRSS (${mb(plain.idleRss)} with no pods)`,
            ],
          }),
        ];
      } finally {
        client.close();
      }
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
