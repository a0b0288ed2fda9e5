/**
 * `make soak`: an hour (SOAK_DURATION) of mixed load on two API servers over a three-member etcd
 * cluster, with API server restarts, etcd compactions and etcd member restarts on a schedule, then
 * the end checks (informers against fresh lists, the ledger of acknowledged writes) and the report
 * under bench/results/. Exits 1 on any defect-class event.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SoakClient } from './client.js';
import { startControlPlane } from './control-plane.js';
import { soakNamespace } from './crud-writer.js';
import { DisruptionRunner } from './disruptions.js';
import { checkInformers, type Fence } from './final-check.js';
import { Informer, type WatchedResource } from './informer.js';
import { Ledger } from './ledger.js';
import { LoadMix, seed } from './load-mix.js';
import { Recorder } from './recorder.js';
import { writeReport, type SoakRun } from './report.js';
import { Sampler } from './sampler.js';
import { parseDuration, planDisruptions } from './schedule.js';
import { summarizeLatencies } from './stats.js';
import { judge, memoryBounds } from './verdict.js';

const ns = `/api/v1/namespaces/${soakNamespace}`;
const resources: WatchedResource[] = [
  { name: 'configmaps', path: `${ns}/configmaps` },
  { name: 'pods', path: `${ns}/pods` },
  { name: 'deployments', path: `/apis/apps/v1/namespaces/${soakNamespace}/deployments` },
  { name: 'events', path: `/apis/events.k8s.io/v1/namespaces/${soakNamespace}/events` },
];

const rvOf = async (res: { status: number; body: string; json(): any }, what: string): Promise<number> => {
  if (res.status !== 200 && res.status !== 201) throw new Error(`fence ${what} answered ${res.status} ${res.body.slice(0, 200)}`);
  return Number(res.json().metadata.resourceVersion);
};

const fences = new Map<string, Fence>([
  ['configmaps', async (c) => rvOf(await c.raw('POST', `${ns}/configmaps`, { body: { metadata: { name: 'fence' } } }), 'configmap')],
  ['pods', async (c) => rvOf(await c.raw('PATCH', `${ns}/pods/pod-0/status`, { body: { status: { conditions: [{ type: 'soak.example.com/Fence', status: 'True' }] } }, contentType: 'application/strategic-merge-patch+json' }), 'pod')],
  ['deployments', async (c) => rvOf(await c.raw('PATCH', `/apis/apps/v1/namespaces/${soakNamespace}/deployments/deploy-0/status`, { body: { status: { observedGeneration: 2 } }, contentType: 'application/merge-patch+json' }), 'deployment')],
  [
    'events',
    async (c) =>
      rvOf(
        await c.raw('POST', `/apis/events.k8s.io/v1/namespaces/${soakNamespace}/events`, {
          body: { metadata: { name: 'fence' }, eventTime: new Date().toISOString().replace('Z', '000Z'), reportingController: 'soak.example.com/controller', reportingInstance: 'soak-0', action: 'Fence', reason: 'Fence', type: 'Normal', regarding: { apiVersion: 'v1', kind: 'Pod', namespace: soakNamespace, name: 'pod-0' } },
        }),
        'event',
      ),
  ],
]);

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

let stopOnError: () => Promise<void> = async () => undefined;

async function main(): Promise<number> {
  const durationMs = parseDuration(process.env.SOAK_DURATION ?? '60m');
  const serverCount = Number(process.env.SOAK_SERVERS ?? 2);
  const tickMs = Number(process.env.SOAK_TICK_MS ?? 5000);
  const bounds = memoryBounds();
  const began = Date.now();
  const dir = await mkdtemp(join(tmpdir(), 'capstan-soak-'));
  process.stdout.write(`soak: ${durationMs / 60_000} minutes, ${serverCount} API servers, 3 etcd members; logs in ${dir}\n`);
  const plane = await startControlPlane(dir, serverCount);
  stopOnError = () => plane.stop();
  const recorder = new Recorder(Date.now());
  const interrupted = (): void => void plane.stop().then(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  for (const s of plane.servers) s.onUnexpectedExit((code, signal) => recorder.defect(`${s.name} exited by itself (${code ?? signal}); its log: ${dir}/${s.name}.log`));
  const client = new SoakClient(plane.servers, plane.token, recorder);
  const ledger = new Ledger();
  await seed(client, ledger);
  const informers = resources.flatMap((r) => plane.servers.map((_, i) => new Informer(r, client, recorder, i)));
  await Promise.all(informers.map((i) => i.start()));
  const setupMs = Date.now() - began;
  process.stdout.write(`soak: set up in ${(setupMs / 1000).toFixed(1)} s; load running\n`);

  recorder.restart();
  const plan = planDisruptions(durationMs);
  const sampler = new Sampler(recorder, plane, client, tickMs);
  const disruptions = new DisruptionRunner(plane, recorder, plan);
  const load = new LoadMix(client, plane.servers, ledger, recorder, dir);
  sampler.start();
  disruptions.start();
  load.start();
  const progress = setInterval(() => {
    const s = sampler.samples.at(-1);
    if (!s) return;
    const n = Object.values(s.requests).reduce((a, b) => a + b, 0);
    process.stdout.write(`soak: ${(s.t / 60_000).toFixed(1)} min, ${(n / s.seconds).toFixed(0)} req/s, ${recorder.defects.length} defects\n`);
  }, 60_000);
  await sleep(durationMs);
  clearInterval(progress);
  await disruptions.stop();
  await load.stop();
  const loadMs = recorder.now();
  await sampler.stop();

  process.stdout.write('soak: load stopped; checking informers and the ledger\n');
  await sleep(3000);
  for (const s of plane.servers) if (!s.up) await s.start().catch((err: unknown) => recorder.defect(`${s.name} would not start for the end checks: ${(err as Error).message}`));
  const objectsCompared = await checkInformers(client, informers, fences, recorder);
  for (const i of informers) i.stop();
  const ledgerCheck = await ledger.check(client, (path, o) => (path.includes('/configmaps/') ? (o.data?.v ?? '') : path.includes('/events/') ? String(o.series?.count ?? 1) : o.metadata.name));
  for (const l of ledgerCheck.lost) recorder.defect(`lost write: ${l}`);
  client.close();

  const late = judge(sampler.samples, sampler.errors, disruptions.done, bounds);
  const latencyTotals = Object.fromEntries([...sampler.latencies].map(([k, v]) => [k, summarizeLatencies(v)]));
  const run: SoakRun = {
    startedAt: new Date(began).toISOString(),
    durationMs,
    loadMs,
    setupMs,
    tickMs,
    servers: serverCount,
    plan,
    disruptions: disruptions.done,
    samples: sampler.samples,
    errors: sampler.errors,
    latencyTotals,
    informers: { count: informers.length, objectsCompared },
    ledger: { acknowledged: ledger.acknowledged, checked: ledgerCheck.checked, unknown: ledgerCheck.unknown, lost: ledgerCheck.lost.length },
    defects: [...recorder.defects, ...late],
    notes: recorder.notes,
    bounds,
    wallMs: 0,
  };
  await plane.stop();
  run.wallMs = Date.now() - began;
  const files = await writeReport(run);
  if (run.defects.length === 0) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  else process.stdout.write(`soak: logs kept in ${dir}\n`);
  process.stdout.write(`soak: report ${files.html}\n       ${files.png}\n       ${files.json}\n`);
  process.stdout.write(`soak: ${ledger.acknowledged} acknowledged writes, ${ledgerCheck.checked} read back (${ledgerCheck.unknown} left unknown), ${objectsCompared} objects compared across ${informers.length} informers, ${run.defects.length} defects; wall time ${(run.wallMs / 60_000).toFixed(1)} min\n`);
  for (const d of run.defects) process.stdout.write(`  DEFECT at ${(d.at / 1000).toFixed(1)}s: ${d.what}\n`);
  return run.defects.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`soak: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    void stopOnError().finally(() => process.exit(2));
  },
);
