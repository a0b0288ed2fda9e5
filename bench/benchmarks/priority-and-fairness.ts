/**
 * priority-and-fairness: what API Priority and Fairness costs on the request path. Cached GET/s
 * (resourceVersion=0, 64 connections) against a server with priority and fairness on (the
 * default: each request classified by the FlowSchemas, estimated and admitted by the dispatcher,
 * its two response headers set), against the same load on a server with
 * --enable-priority-and-fairness=false and no in-flight limits (--max-requests-inflight=0
 * --max-mutating-requests-inflight=0), in alternating A/B rounds (bench/ab-rounds.ts). 64
 * connections stay far below the 600 seats of the defaults, so nothing queues: the figure is the
 * fast path. Target: at most 10% slower (>= 0.9x).
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
const namespace = 'bench-apf';

/** Runs the priority and fairness benchmark. */
export async function priorityAndFairnessBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const workloads: AbWorkload[] = [
    {
      name: 'cached GET',
      load: (s) => throughput({ port: s.port, ca: s.ca, path: `${collectionPath(namespace, 'configmaps')}/target?resourceVersion=0`, connections, warmupSeconds: 0, seconds }),
    },
  ];
  let measured: AbMeasurements | undefined;
  await withServer(await ctx.apiServer(), async (apf) => {
    await withServer(await ctx.apiServer(undefined, ['--enable-priority-and-fairness=false', '--max-requests-inflight=0', '--max-mutating-requests-inflight=0']), async (plain) => {
      await ensureTargetConfigMap([apf, plain], namespace);
      ctx.log(`priority-and-fairness: ${rounds} rounds of ${seconds}s cached GETs, APF on then off, ${connections} connections`);
      measured = await apf.profile('priority-and-fairness', () => runAbRounds(apf, plain, workloads, rounds));
    });
  });
  const m = measured as AbMeasurements;
  return [
    abResult(m, 0, {
      name: 'cached GET priority and fairness',
      aLabel: 'APF on',
      bLabel: 'APF off',
      threshold: 0.9,
      extraFigures: { connections, seconds },
    }),
  ];
}
