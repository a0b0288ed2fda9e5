/**
 * The write-path benchmark's result lines: per verb the median requests/s against the median of
 * its raw etcd baseline, the median of the rounds' ratios judged against issue 17's target, and
 * the CPU figures behind them (the server's per request from /proc, the runner's per raw
 * transaction from process.cpuUsage).
 */
import type { Throughput } from './cannon.js';
import type { RawRun } from './raw-etcd.js';
import { result, type BenchResult, type Target } from './results.js';
import { formatRate, median, ratio } from './stats.js';
import type { WriteVerb } from './write-verbs.js';

/** One round of one verb: the API run and the raw run it is compared with. */
export interface VerbRound {
  readonly api: Throughput & { readonly firstErrors: readonly string[]; readonly serverCpuMicrosPerRequest: number; readonly runnerCpuMicrosPerRequest: number };
  readonly raw: RawRun;
}

/** Issue 17's targets; strategic merge patch and delete are information. */
const targets: Partial<Record<WriteVerb, number>> = { create: 0.5, update: 0.4, 'merge patch': 0.4, apply: 0.25 };

const rawNames = { creates: 'etcd create txn', updates: 'etcd CAS txn', deletes: 'etcd delete txn' } as const;

/** The verbs' result lines. */
export function verbResults(measured: ReadonlyMap<WriteVerb, readonly VerbRound[]>, baselineOf: Record<WriteVerb, keyof typeof rawNames>): BenchResult[] {
  return [...measured].map(([verb, rounds]) => {
    const rate = median(rounds.map((x) => x.api.perSecond));
    const base = median(rounds.map((x) => x.raw.perSecond));
    const serverCpu = median(rounds.map((x) => x.api.serverCpuMicrosPerRequest));
    const rawCpu = median(rounds.map((x) => x.raw.clientCpuMicrosPerTxn));
    const runnerCpu = median(rounds.map((x) => x.api.runnerCpuMicrosPerRequest));
    const threshold = targets[verb];
    const target: Target | undefined = threshold === undefined ? undefined : { on: 'ratio', op: '>=', threshold, text: `>= ${threshold}x` };
    const failed = rounds.reduce((n, x) => n + x.api.failed, 0);
    const notes = [
      `per round: ${rounds.map((x) => `${formatRate(x.api.perSecond)}/${formatRate(x.raw.perSecond)}`).join(', ')} (API/etcd)`,
      `server CPU per ${verb} ${serverCpu.toFixed(0)} µs (median of rounds, /proc, all threads); raw etcd client CPU per txn ${rawCpu.toFixed(0)} µs (the runner's process.cpuUsage: etcd3 client + grpc-js); the HTTPS load's own CPU ${runnerCpu.toFixed(0)} µs per request`,
    ];
    if (failed > 0) notes.push(`${failed} requests did not answer 2xx: ${JSON.stringify(rounds.map((x) => x.api.statusCodes))}; e.g. ${rounds.flatMap((x) => x.api.firstErrors)[0] ?? ''}`);
    const rawFailed = rounds.reduce((n, x) => n + x.raw.failed, 0);
    if (rawFailed > 0) notes.push(`${rawFailed} raw etcd transactions failed or lost the compare`);
    const ok = rounds.reduce((n, x) => n + x.api.ok, 0);
    return result({
      name: `write ${verb}`,
      measured: `${formatRate(rate)}/s, ${serverCpu.toFixed(0)} µs CPU`,
      baseline: `${rawNames[baselineOf[verb]]} ${formatRate(base)}/s`,
      value: rate,
      baselineValue: base,
      ratio: median(rounds.map((x) => ratio(x.api.perSecond, x.raw.perSecond))),
      ...(target ? { target } : {}),
      ...(ok === 0 ? { status: 'FAILED' as const } : {}),
      figures: {
        api: rounds.map((x) => ({ ...x.api, firstErrors: x.api.firstErrors.slice(0, 1) })),
        raw: rounds.map((x) => x.raw),
        serverCpuMicrosPerRequest: serverCpu,
        rawClientCpuMicrosPerTxn: rawCpu,
        runnerCpuMicrosPerRequest: runnerCpu,
      },
      notes,
    });
  });
}
