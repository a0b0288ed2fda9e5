/**
 * max-in-flight: what kube's max-in-flight filter (--enable-priority-and-fairness=false with the
 * default --max-requests-inflight=400 --max-mutating-requests-inflight=200) costs on the request
 * path. Cached GET/s (resourceVersion=0, 64 connections, so the limit is never reached) against a
 * server with the filter, against the same load on a server with both limits 0 (kube installs no
 * filter then), in alternating A/B rounds (bench/ab-rounds.ts). Target: at most 10% slower, as
 * the other A/B rows (their rounds vary by more than the filter costs; the server CPU per request
 * in the notes is the sharper figure).
 */
import { abResult, runAbRounds, type AbMeasurements, type AbWorkload } from '../ab-rounds.js';
import { throughput } from '../cannon.js';
import { ensureTargetConfigMap } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath } from '../objects.js';
import type { BenchResult } from '../results.js';

const connections = 64;
const seconds = 3;
const rounds = 5;
const namespace = 'bench-inflight';

/** Runs the max-in-flight benchmark. */
export async function maxInFlightBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const target = `${collectionPath(namespace, 'configmaps')}/target`;
  const workloads: AbWorkload[] = [
    { name: 'cached GET', load: (s) => throughput({ port: s.port, ca: s.ca, path: `${target}?resourceVersion=0`, connections, warmupSeconds: 0, seconds }) },
  ];
  let measured: AbMeasurements | undefined;
  await withServer(await ctx.apiServer(undefined, ['--enable-priority-and-fairness=false']), async (limited) => {
    await withServer(await ctx.apiServer(undefined, ['--enable-priority-and-fairness=false', '--max-requests-inflight=0', '--max-mutating-requests-inflight=0']), async (unlimited) => {
      await ensureTargetConfigMap([limited], namespace);
      ctx.log(`max-in-flight: ${rounds} rounds of ${seconds}s cached GETs, limits 400/200 then none, ${connections} connections`);
      measured = await limited.profile('max-in-flight', () => runAbRounds(limited, unlimited, workloads, rounds));
    });
  });
  return [abResult(measured as AbMeasurements, 0, { name: 'cached GET max-in-flight', aLabel: 'limits 400/200', bLabel: 'no limits', threshold: 0.9, extraFigures: { connections, seconds } })];
}
