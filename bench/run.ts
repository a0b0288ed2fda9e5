/**
 * `make bench`: starts a throwaway etcd, seeds 10,000 Pods, runs every benchmark against fresh
 * server children, prints each result as a ratio against a baseline measured in the same run,
 * then a table, and writes bench/results/<date>.json.
 *
 *   node dist/bench/run.js [--only creates,write-path,get,list,watch,informers,startup-storm,residency,security,audit,priority-and-fairness,admission,custom-resources,etcd-tls,http2,apf,feature-gates,max-in-flight,apf-flood,node-agent,simulated-nodes] [--cpu-prof[=DIR]]
 *                          [--part=api|write|chain|serving|nodes] [--fail-on-missed] [--label=NAME]
 *
 * Exits 1 when a benchmark could not run (error), and with --fail-on-missed also on a MISSED target.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { mkdirSync, readdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalEtcd, type LocalEtcd } from '../hack/local-etcd.js';
import { admissionBenchmark } from './benchmarks/admission.js';
import { apfFloodBenchmark } from './benchmarks/apf-flood.js';
import { auditBenchmark } from './benchmarks/audit.js';
import { priorityAndFairnessBenchmark } from './benchmarks/priority-and-fairness.js';
import { customResourcesBenchmark } from './benchmarks/custom-resources.js';
import { apfDispatchBenchmark } from './benchmarks/apf-dispatch.js';
import { etcdTlsBenchmark } from './benchmarks/etcd-tls.js';
import { http2Benchmark } from './benchmarks/http2.js';
import { featureGatesBenchmark } from './benchmarks/feature-gates.js';
import { cachedGetBenchmark } from './benchmarks/cached-get.js';
import { createsBenchmark } from './benchmarks/creates.js';
import { informerStartupBenchmark } from './benchmarks/informer-startup.js';
import { listBenchmark } from './benchmarks/list.js';
import { maxInFlightBenchmark } from './benchmarks/max-in-flight.js';
import { nodeAgentRssBenchmark } from './benchmarks/node-agent-rss.js';
import { residencyBenchmark } from './benchmarks/residency.js';
import { securityBenchmark } from './benchmarks/security.js';
import { startupStormBenchmark } from './benchmarks/startup-storm.js';
import { simulatedNodesBenchmark } from './benchmarks/simulated-nodes.js';
import { watchFanoutBenchmark } from './benchmarks/watch-fanout.js';
import { writePathBenchmark } from './benchmarks/write-path.js';
import { ensureNamespace, newClient, ServerFailure } from './client.js';
import { newContext, withServer, type BenchContext, type Benchmark } from './context.js';
import { collectionPath, pod } from './objects.js';
import { formatSummary, summariseProfile } from './profile-summary.js';
import { failedResult, formatLine, formatTable, writeResults, type BenchResult } from './results.js';
import { seed } from './seed.js';
import { formatBytes, formatMs } from './stats.js';
import { hasWatchCacheFlag } from './watch-cache-flag.js';

/**
 * The suite runs in parts, one process each (`make bench` runs them in turn), so that each part
 * stays under the watchdog: the whole suite outgrew 10 minutes with issues 16 and 17's rows.
 */
const parts = ['api', 'write', 'chain', 'serving', 'nodes'] as const;
type Part = (typeof parts)[number];

const benchmarks: ReadonlyArray<{ key: string; run: Benchmark; needsPods: boolean; part: Part }> = [
  { key: 'creates', run: createsBenchmark, needsPods: false, part: 'api' },
  { key: 'write-path', run: writePathBenchmark, needsPods: false, part: 'write' },
  { key: 'get', run: cachedGetBenchmark, needsPods: false, part: 'api' },
  { key: 'list', run: listBenchmark, needsPods: true, part: 'api' },
  { key: 'watch', run: watchFanoutBenchmark, needsPods: false, part: 'api' },
  { key: 'informers', run: informerStartupBenchmark, needsPods: true, part: 'api' },
  { key: 'startup-storm', run: startupStormBenchmark, needsPods: true, part: 'write' },
  { key: 'residency', run: residencyBenchmark, needsPods: false, part: 'api' },
  { key: 'security', run: securityBenchmark, needsPods: false, part: 'chain' },
  { key: 'audit', run: auditBenchmark, needsPods: false, part: 'chain' },
  { key: 'priority-and-fairness', run: priorityAndFairnessBenchmark, needsPods: false, part: 'chain' },
  { key: 'admission', run: admissionBenchmark, needsPods: false, part: 'chain' },
  { key: 'custom-resources', run: customResourcesBenchmark, needsPods: false, part: 'chain' },
  { key: 'etcd-tls', run: etcdTlsBenchmark, needsPods: false, part: 'serving' },
  { key: 'http2', run: http2Benchmark, needsPods: false, part: 'serving' },
  { key: 'apf', run: apfDispatchBenchmark, needsPods: false, part: 'serving' },
  { key: 'feature-gates', run: featureGatesBenchmark, needsPods: true, part: 'serving' },
  { key: 'max-in-flight', run: maxInFlightBenchmark, needsPods: false, part: 'serving' },
  { key: 'apf-flood', run: apfFloodBenchmark, needsPods: false, part: 'serving' },
  { key: 'node-agent', run: nodeAgentRssBenchmark, needsPods: false, part: 'nodes' },
  { key: 'simulated-nodes', run: simulatedNodesBenchmark, needsPods: false, part: 'nodes' },
];

const listNamespace = 'bench-list';
const listCount = 10_000;
/** Each run (a part, or --only rows) must finish within 10 minutes; past this it stops and reports what it has. */
const watchdogMs = 570_000;

interface Args {
  only?: Set<string>;
  part?: Part;
  cpuProfileDir?: string;
  failOnMissed: boolean;
  /** Appended to the results file name: <date>-<label>.json. */
  label?: string;
}

function parseArgs(argv: readonly string[]): Args {
  const out: Args = { failOnMissed: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--only') out.only = new Set((argv[++i] ?? '').split(','));
    else if (a.startsWith('--only=')) out.only = new Set(a.slice(7).split(','));
    else if (a.startsWith('--part=')) {
      const p = a.slice(7) as Part;
      if (!parts.includes(p)) throw new Error(`unknown part ${p}; known: ${parts.join(', ')}`);
      out.part = p;
    } else if (a === '--cpu-prof') out.cpuProfileDir = '';
    else if (a.startsWith('--cpu-prof=')) out.cpuProfileDir = a.slice(11);
    else if (a === '--fail-on-missed') out.failOnMissed = true;
    else if (a.startsWith('--label=') && /^[A-Za-z0-9_.-]+$/.test(a.slice(8))) out.label = a.slice(8);
    else throw new Error(`unknown argument ${a}`);
  }
  const unknown = [...(out.only ?? [])].filter((k) => !benchmarks.some((b) => b.key === k));
  if (unknown.length > 0) throw new Error(`unknown benchmark(s) ${unknown.join(', ')}; known: ${benchmarks.map((b) => b.key).join(', ')}`);
  return out;
}

async function seedPods(ctx: BenchContext): Promise<void> {
  await withServer(await ctx.apiServer(), async (server) => {
    const client = newClient(server.port, server.ca);
    await ensureNamespace(client, listNamespace);
    const path = collectionPath(listNamespace, 'pods');
    ctx.log(`seed: creating ${listCount} Pods in ${listNamespace}, 64 in flight`);
    const made = await seed(client, path, listCount, (i) => pod(`p-${String(i).padStart(5, '0')}`, i));
    if (made.failed > 0) throw new ServerFailure(`seeding Pods: ${made.failed} failed: ${made.errors.join('; ')}`);
    const one = await client.call('GET', `${path}/p-00000`);
    client.close();
    ctx.log(`seed: ${made.created} Pods in ${formatMs(made.ms)} (${Math.round(made.created / (made.ms / 1000))}/s); one Pod is ${formatBytes(one.body.length)} of JSON`);
  });
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const here = dirname(fileURLToPath(import.meta.url));
  const repo = resolve(here, '..', '..');
  const resultsDir = join(repo, 'bench', 'results');
  const cpuProfileDir = args.cpuProfileDir === undefined ? undefined : resolve(args.cpuProfileDir || join(resultsDir, 'profiles', new Date().toISOString().replace(/[:.]/g, '-')));
  if (cpuProfileDir) mkdirSync(cpuProfileDir, { recursive: true });
  const selected = benchmarks.filter((b) => (!args.only || args.only.has(b.key)) && (!args.part || b.part === args.part));
  const started = performance.now();
  const loadAtStart = loadavg();
  const results: BenchResult[] = [];
  let etcd: LocalEtcd | undefined;
  let certDir: string | undefined;
  let finishing = false;

  const finish = async (reason?: string): Promise<number> => {
    if (finishing) return 1;
    finishing = true;
    if (reason) results.push(failedResult('suite', 'error', reason));
    await etcd?.stop().catch(() => undefined);
    if (certDir) await rm(certDir, { recursive: true, force: true });
    const elapsed = (performance.now() - started) / 1000;
    process.stdout.write(`\n${formatTable(results)}\n\n`);
    for (const r of results.filter((x) => x.notes.length > 0)) process.stdout.write(`${r.name}: ${r.notes.join('; ')}\n`);
    const watchCache = hasWatchCacheFlag();
    const path = writeResults(resultsDir, args.label ?? args.part, results, {
      elapsedSeconds: Math.round(elapsed),
      // Other work on the machine skews absolute figures; the ratios are measured side by side.
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadavg(),
      watchCache: watchCache ? 'present (--watch-cache flag accepted)' : 'absent (no --watch-cache flag): measured against the uncached server',
      benchmarks: selected.map((b) => b.key),
      ...(cpuProfileDir ? { cpuProfileDir } : {}),
    });
    process.stdout.write(`\nresults written to ${path}; suite took ${elapsed.toFixed(0)}s${elapsed > 600 ? ' (OVER the 10 minute budget)' : ''}\n`);
    if (cpuProfileDir) {
      for (const f of readdirSync(cpuProfileDir).filter((x) => x.endsWith('.cpuprofile')).sort()) {
        process.stdout.write(`\nCPU profile ${f}, top self time:\n${formatSummary(summariseProfile(join(cpuProfileDir, f), 12))}\n`);
      }
    }
    const errors = results.some((r) => r.status === 'error');
    const missed = results.some((r) => r.status === 'MISSED');
    return errors || (args.failOnMissed && missed) ? 1 : 0;
  };

  const watchdog = setTimeout(() => {
    void finish(`watchdog: the suite ran past ${watchdogMs / 1000}s and was stopped`).then((code) => process.exit(code || 1));
  }, watchdogMs);
  watchdog.unref();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void finish(`interrupted by ${signal}`).then(() => process.exit(130)));
  }

  etcd = await startLocalEtcd();
  certDir = await mkdtemp(join(tmpdir(), 'capstan-bench-certs-'));
  const ctx = newContext({ etcdEndpoint: etcd.endpoint, certDir, watchCacheFlag: hasWatchCacheFlag(), listNamespace, listCount }, cpuProfileDir);
  ctx.log(`etcd at ${etcd.endpoint}; watch cache flag ${ctx.watchCacheFlag ? 'present' : 'absent (measuring the uncached server)'}${cpuProfileDir ? `; CPU profiles in ${cpuProfileDir}` : ''}`);
  try {
    if (selected.some((b) => b.needsPods)) await seedPods(ctx);
  } catch (err) {
    return await finish(`seeding failed: ${(err as Error).message}`);
  }
  for (const b of selected) {
    try {
      for (const r of await b.run(ctx)) {
        results.push(r);
        process.stdout.write(`${formatLine(r)}\n`);
      }
    } catch (err) {
      // A server failure outside a benchmark's own handling is FAILED; anything else broke the harness.
      const r = err instanceof ServerFailure ? failedResult(b.key, 'FAILED', err.message) : failedResult(b.key, 'error', (err as Error).stack ?? (err as Error).message);
      results.push(r);
      process.stdout.write(`${formatLine(r)}\n`);
    }
    if (finishing) break;
  }
  clearTimeout(watchdog);
  return await finish();
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
