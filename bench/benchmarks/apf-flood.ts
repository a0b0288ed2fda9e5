/**
 * apf-flood: API Priority and Fairness against a noisy tenant (test/support/tenant-flood.ts). One
 * server with priority and fairness on (the default) and two users: the noisy one in a small
 * priority level of its own (queuing, no borrowing), listing 100 config maps with ten times as
 * many requests in flight as its level has seats; the quiet one in the suggested global-default
 * level, getting one config map with 4 in flight. Per round the quiet flow's p99 latency is
 * measured alone (the baseline) and then under the flood; the figure is the median of the rounds'
 * ratios. Target: the flood raises the quiet p99 at most 2x, and the noisy tenant gets 429s.
 */
import { withServer, type BenchContext } from '../context.js';
import { failedResult, result, type BenchResult } from '../results.js';
import { median } from '../stats.js';
import { tokenAuthFileFlag } from '../../test/support/static-tokens.js';
import { floodRound, floodUsers, noisySeats, prepareFlood, type FloodRound, type FloodShape } from '../../test/support/tenant-flood.js';

const rounds = 3;
const shape: FloodShape = { namespace: 'bench-apf-flood', listSize: 100, noisyShares: 2, queueLengthLimit: 10, quietConcurrency: 4, measureMs: 4000, floodWarmupMs: 1000 };
const adminToken = 'bench-apf-admin';

/** Runs the apf-flood benchmark. */
export async function apfFloodBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const flags = [await tokenAuthFileFlag([...floodUsers, { token: adminToken, name: 'bench-admin', uid: 'bench-admin', groups: ['system:masters'] }])];
  const name = 'apf flood quiet p99';
  const target = { on: 'ratio' as const, op: '<=' as const, threshold: 2, text: '<= 2x, noisy gets 429s' };
  return withServer(await ctx.apiServer(undefined, flags), async (s) => {
    const t = { port: s.port, ca: s.ca, adminToken };
    try {
      await prepareFlood(t, shape);
    } catch (err) {
      return [failedResult(name, 'FAILED', `priority and fairness did not take the noisy tenant's configuration: ${(err as Error).message}`, target)];
    }
    const seats = await noisySeats(t);
    ctx.log(`apf-flood: ${rounds} rounds; noisy level ${seats} seats, ${10 * seats} noisy lists in flight; quiet GETs ${shape.quietConcurrency} in flight, ${shape.measureMs} ms alone then flooded`);
    const measured: FloodRound[] = [];
    await s.profile('apf-flood', async () => {
      for (let r = 0; r < rounds; r++) measured.push(await floodRound(t, shape, seats));
    });
    const ratios = measured.map((m) => m.floodedP99Ms / m.aloneP99Ms);
    const rejected = measured.reduce((n, m) => n + m.noisy.rejected, 0);
    const quietFailures = measured.reduce((n, m) => n + m.quietFailures, 0);
    const flooded = median(measured.map((m) => m.floodedP99Ms));
    const alone = median(measured.map((m) => m.aloneP99Ms));
    const r = result({
      name,
      measured: `p99 ${flooded.toFixed(1)} ms flooded`,
      baseline: `alone ${alone.toFixed(1)} ms`,
      value: flooded,
      baselineValue: alone,
      ratio: median(ratios),
      target,
      figures: { rounds: measured, seats, shape },
      notes: [
        `per round p99 flooded/alone: ${measured.map((m) => `${m.floodedP99Ms.toFixed(1)}/${m.aloneP99Ms.toFixed(1)} ms`).join(', ')}; p50 ${measured.map((m) => `${m.floodedP50Ms.toFixed(1)}/${m.aloneP50Ms.toFixed(1)}`).join(', ')} ms`,
        `noisy tenant (${10 * seats} in flight for ${seats} seats): ${measured.map((m) => `${m.noisy.ok} served, ${m.noisy.rejected} 429, ${m.noisy.other} other`).join('; ')}`,
        ...(quietFailures > 0 ? [`the quiet tenant got ${quietFailures} non-200 answers`] : []),
      ],
    });
    // Both halves of the target: the ratio, and 429s for the noisy tenant (and none for the quiet one).
    return [rejected > 0 && quietFailures === 0 ? r : { ...r, status: 'MISSED' }];
  });
}
