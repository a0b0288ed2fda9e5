/**
 * A/B measurement of one feature's cost: the same workloads against a server with the feature
 * (A) and one without (B), side by side on the same etcd, in alternating rounds whose order flips
 * every round (the server measured second in a round runs on a warmer machine). Each workload's
 * ratio is the median of its rounds'; each server's own CPU per answered request (from /proc) is
 * noted too, apart from the load generator sharing the cores.
 */
import type { Throughput } from './cannon.js';
import { result, type BenchResult } from './results.js';
import { measure, type Measured } from './server-cpu.js';
import type { ServerHandle } from './server-handle.js';
import { formatRate, median, ratio } from './stats.js';

/** One load, run against either server. */
export interface AbWorkload {
  readonly name: string;
  readonly load: (server: ServerHandle, side: 'a' | 'b') => Promise<Throughput>;
}

/** What was measured: per workload, each side's rounds. */
export interface AbMeasurements {
  readonly a: Measured[][];
  readonly b: Measured[][];
}

/** Warms both servers on every workload, then runs rounds of every workload on both, alternating. */
export async function runAbRounds(a: ServerHandle, b: ServerHandle, workloads: readonly AbWorkload[], rounds: number): Promise<AbMeasurements> {
  for (const w of workloads) {
    await w.load(a, 'a');
    await w.load(b, 'b');
  }
  const out: AbMeasurements = { a: workloads.map(() => []), b: workloads.map(() => []) };
  for (let r = 0; r < rounds; r++) {
    for (const [i, w] of workloads.entries()) {
      const runA = async (): Promise<void> => void (out.a[i] as Measured[]).push(await measure(a, () => w.load(a, 'a')));
      const runB = async (): Promise<void> => void (out.b[i] as Measured[]).push(await measure(b, () => w.load(b, 'b')));
      if (r % 2 === 0) {
        await runA();
        await runB();
      } else {
        await runB();
        await runA();
      }
    }
  }
  return out;
}

/** How a workload's A/B result is named and judged. */
export interface AbReport {
  readonly name: string;
  /** Short names of the two sides for the notes ("x509+RBAC", "AlwaysAllow"). */
  readonly aLabel: string;
  readonly bLabel: string;
  readonly threshold: number;
  readonly extraNotes?: readonly string[];
  readonly extraFigures?: Record<string, unknown>;
}

/** The result of workload i: A's median rate against B's, the median of the rounds' ratios as the figure. */
export function abResult(m: AbMeasurements, i: number, report: AbReport): BenchResult {
  const a = (m.a[i] as Measured[]).map((x) => x.throughput);
  const b = (m.b[i] as Measured[]).map((x) => x.throughput);
  const ratios = a.map((x, j) => ratio(x.perSecond, (b[j] as Throughput).perSecond));
  const cpuA = median((m.a[i] as Measured[]).map((x) => x.cpuMicrosPerRequest));
  const cpuB = median((m.b[i] as Measured[]).map((x) => x.cpuMicrosPerRequest));
  const notes = [
    `per round: ${a.map((x, j) => `${formatRate(x.perSecond)}/${formatRate((b[j] as Throughput).perSecond)}`).join(', ')} (${report.aLabel}/${report.bLabel})`,
    `server CPU per request (median of rounds, from /proc): ${cpuA.toFixed(0)} µs against ${cpuB.toFixed(0)} µs = ${(cpuA / cpuB).toFixed(2)}x`,
    ...(report.extraNotes ?? []),
  ];
  const failed = a.reduce((n, x) => n + x.failed, 0) + b.reduce((n, x) => n + x.failed, 0);
  if (failed > 0) notes.push(`${failed} requests did not answer 2xx: ${JSON.stringify([...a, ...b].map((x) => x.statusCodes))}`);
  const rate = median(a.map((x) => x.perSecond));
  const base = median(b.map((x) => x.perSecond));
  return result({
    name: report.name,
    measured: `${formatRate(rate)}/s`,
    baseline: `${report.bLabel} ${formatRate(base)}/s`,
    value: rate,
    baselineValue: base,
    ratio: median(ratios),
    target: { on: 'ratio', op: '>=', threshold: report.threshold, text: `>= ${report.threshold}x (at most ${Math.round((1 - report.threshold) * 100)}% slower)` },
    figures: { a, b, ratios, cpuMicrosPerRequest: { a: cpuA, b: cpuB }, rounds: a.length, ...report.extraFigures },
    notes,
  });
}
