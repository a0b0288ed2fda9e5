/**
 * simulated nodes: 1,000 simulated nodes (internal/nodeagent/simulated, in this runner process,
 * one shared pod watch) and 10,000 pods bound to them against one fresh API server child. The
 * nodes register and renew their Leases every 10 s (kubelet's default 40 s lease / 4); the pods are
 * created 64 in flight and each moved to Running by its node. Then, for a steady window of 30 s,
 * the Lease renewals' p99 latency (kube's SLO for mutating calls: p99 <= 1 s), the server child's
 * CPU (from /proc/<pid>/stat) and its RSS. Baselines from the same run: a single node's renewals
 * and the same server idle, before the thousand nodes start. Everything is deleted afterwards
 * (pods with gracePeriodSeconds=0, since no node is left to finish them). The nodes share one
 * client certificate of the group system:nodes, so priority and fairness puts their requests in
 * the `system` level as it does kubelets'; the pods are created as a system:masters user.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../internal/nodeagent/client/api-client.js';
import { createCertificateAuthority, issueCertificate } from '../../internal/server/pki.js';
import { defaultNodeAgentConfig } from '../../internal/nodeagent/options/defaults.js';
import { runSimulatedNodes, type SimulatedNodes } from '../../internal/nodeagent/simulated/run.js';
import { createLogger } from '../../internal/observability/logging.js';
import { ensureNamespace, newClient, serverFailure } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath } from '../objects.js';
import { result, type BenchResult } from '../results.js';
import { seed } from '../seed.js';
import { processCpuMs } from '../server-cpu.js';
import { formatBytes, formatMs, percentile, ratio } from '../stats.js';

// BENCH_SIM_NODES / BENCH_SIM_PODS scale the run down (a quick check of the harness).
const nodes = Number(process.env.BENCH_SIM_NODES ?? 1_000);
const pods = Number(process.env.BENCH_SIM_PODS ?? 10_000);
/** How long the pods may take to be Running before the steady window starts anyway. */
const runningDeadlineMs = 90_000;
const namespace = 'bench-sim';
const steadyMs = 30_000;
const baselineMs = 10_000;

function boundPod(i: number): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `sim-pod-${String(i).padStart(5, '0')}`, labels: { app: 'sim' } },
    spec: { nodeName: `sim-${i % nodes}`, containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
  };
}

async function runningCount(client: ReturnType<typeof newClient>): Promise<number> {
  const reply = await client.call('GET', `${collectionPath(namespace, 'pods')}?resourceVersion=0&fieldSelector=status.phase%3DRunning`);
  if (reply.status !== 200) throw serverFailure('GET', 'pods', reply.status, reply.body);
  return (JSON.parse(reply.body.toString('utf8')) as { items: unknown[] }).items.length;
}

/** CPU cores the server child used over fn (its CPU time over the wall time). */
async function serverCores(pid: number, ms: number, during?: () => void): Promise<number> {
  const cpu0 = processCpuMs(pid);
  const t0 = performance.now();
  during?.();
  await new Promise((r) => setTimeout(r, ms));
  return (processCpuMs(pid) - cpu0) / (performance.now() - t0);
}

/** Registration, the pods' creation until Running, then the steady window's renewals and server CPU. */
async function loadAndMeasure(ctx: BenchContext, pid: number, client: ReturnType<typeof newClient>, sim: SimulatedNodes, t0: number) {
  await sim.registered;
  const registeredMs = performance.now() - t0;
  ctx.log(`simulated nodes: ${nodes} registered in ${formatMs(registeredMs)}; creating ${pods} pods bound to them`);
  const t1 = performance.now();
  const made = await seed(client, collectionPath(namespace, 'pods'), pods, boundPod);
  if (made.failed > 0) throw serverFailure('POST', 'pods', 0, Buffer.from(made.errors.join('; ')));
  let running = 0;
  while ((running = await runningCount(client)) < pods && performance.now() - t1 < runningDeadlineMs) await new Promise((r) => setTimeout(r, 2_000));
  const runningMs = performance.now() - t1;
  ctx.log(`simulated nodes: ${running}/${pods} pods Running ${formatMs(runningMs)} after the first create; steady window of ${steadyMs / 1000} s`);
  let from = 0;
  const cores = await serverCores(pid, steadyMs, () => (from = sim.leaseLatenciesMs.length));
  return { registeredMs, runningMs, running, cores, steady: sim.leaseLatenciesMs.slice(from) };
}

/** Runs the simulated nodes benchmark. */
export async function simulatedNodesBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-bench-sim-'));
  const ca = await createCertificateAuthority('bench-client-ca');
  const caFile = join(dir, 'client-ca.crt');
  await writeFile(caFile, ca.certPem);
  const admin = await issueCertificate(ca, { commonName: 'bench-admin', organizations: ['system:masters'], usage: 'client' });
  const nodeCert = await issueCertificate(ca, { commonName: 'system:node:sim', organizations: ['system:nodes'], usage: 'client' });
  try {
    return await run(ctx, caFile, admin, nodeCert);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function run(ctx: BenchContext, caFile: string, admin: { cert: string; key: string }, nodeCert: { cert: string; key: string }): Promise<BenchResult[]> {
  return withServer(await ctx.apiServer(undefined, [`--client-ca-file=${caFile}`]), async (server) => {
    const client = newClient(server.port, server.ca, 64, admin);
    const api = new ApiClient({ server: `https://127.0.0.1:${server.port}`, ca: Buffer.from(server.ca), tlsServerName: 'localhost', clientCert: Buffer.from(nodeCert.cert), clientKey: Buffer.from(nodeCert.key) });
    const log = createLogger(0, true);
    const config = { ...defaultNodeAgentConfig() };
    await ensureNamespace(client, namespace);

    // Baselines: the idle server, and one node's renewals (its Lease renewed every 10 s, so the
    // window holds a few; a second node keeps them coming faster with a 4 s lease).
    const idleCores = await serverCores(server.pid, baselineMs);
    const idleRss = (await server.memory(false)).rss;
    const single = runSimulatedNodes({ ...config, hostnameOverride: 'solo', nodeLeaseDurationSeconds: 4 }, () => api, log, 1);
    await single.registered;
    await new Promise((r) => setTimeout(r, 6_000));
    await single.stop();
    const soloP99 = percentile(single.leaseLatenciesMs, 99);

    const t0 = performance.now();
    const sim = runSimulatedNodes(config, () => api, log, nodes, { maxInFlight: 32 });
    const m = await server.profile('simulated-nodes', () => loadAndMeasure(ctx, server.pid, client, sim, t0)).finally(() => sim.stop());
    const { registeredMs, runningMs, running, steady, cores } = m;
    const rss = (await server.memory(false)).rss;
    const p99 = percentile(steady, 99);
    const p50 = percentile(steady, 50);

    await client.call('DELETE', `${collectionPath(namespace, 'pods')}?gracePeriodSeconds=0`);
    await client.call('DELETE', '/api/v1/nodes');
    await client.call('DELETE', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases');
    api.close();
    client.close();
    const figures = { nodes, pods, registeredMs, runningMs, running, renewals: steady.length, p50, p99, soloP99, soloRenewals: single.leaseLatenciesMs.length, cores, idleCores, rss, idleRss };
    return [
      result({
        name: `sim ${nodes} nodes heartbeat`,
        measured: `p99 ${formatMs(p99)} (p50 ${formatMs(p50)}, ${steady.length} renewals)`,
        baseline: `1 node p99 ${formatMs(soloP99)}`,
        value: p99,
        baselineValue: soloP99,
        ratio: ratio(p99, soloP99),
        target: { on: 'value', op: '<=', threshold: 1000, text: 'p99 <= 1 s' },
        figures,
        notes: [`${nodes} nodes registered in ${formatMs(registeredMs)}, ${running}/${pods} pods Running in ${formatMs(runningMs)}`],
      }),
      result({
        name: `sim ${nodes} nodes server CPU`,
        measured: `${cores.toFixed(2)} cores`,
        baseline: `idle ${idleCores.toFixed(2)} cores`,
        value: cores,
        baselineValue: idleCores,
        ratio: ratio(cores, idleCores),
        figures,
      }),
      result({
        name: `sim ${nodes} nodes server RSS`,
        measured: formatBytes(rss),
        baseline: `idle ${formatBytes(idleRss)}`,
        value: rss,
        baselineValue: idleRss,
        ratio: ratio(rss, idleRss),
        figures,
      }),
    ];
  });
}
