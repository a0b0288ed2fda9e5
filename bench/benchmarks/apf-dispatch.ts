/**
 * apf admit: what the priority-and-fairness dispatcher adds to a request on its fast path (free
 * seats, empty queues): admit() awaited and finish() called, in-process, on kube's suggested
 * configuration at 600 seats with 64 flows (distinguishers) in global-default. The baseline is
 * the same loop awaiting an already-resolved result, the least an asynchronous admit can cost;
 * rounds alternate. The figure is ns per request (about 1 µs on an idle 2-core machine, a bare
 * await about 0.1 µs); the ratio target keeps it there, under 1% of what a cached GET costs the
 * server, and judges it against the same machine's await cost when other work loads the machine.
 */
import { performance } from 'node:perf_hooks';
import { createFlowDispatcher } from '../../internal/flowcontrol/fairqueuing/dispatcher.js';
import type { AdmitRequest, AdmitResult, PriorityLevelSpec } from '../../internal/flowcontrol/interface.js';
import { KubeRegistry } from '../../internal/observability/kube-registry.js';
import { parseRequestInfo } from '../../internal/request/request-info.js';
import type { BenchContext } from '../context.js';
import { result, type BenchResult } from '../results.js';
import { median } from '../stats.js';

const q = (queues: number, handSize: number) => ({ queues, handSize, queueLengthLimit: 50 });
const levels: PriorityLevelSpec[] = [
  { name: 'exempt', uid: '0', exempt: true, nominalConcurrencyShares: 0, lendablePercent: 0 },
  { name: 'catch-all', uid: '1', exempt: false, nominalConcurrencyShares: 5, lendablePercent: 0, queuing: q(64, 6) },
  { name: 'global-default', uid: '2', exempt: false, nominalConcurrencyShares: 20, lendablePercent: 50, queuing: q(128, 6) },
  { name: 'workload-low', uid: '3', exempt: false, nominalConcurrencyShares: 100, lendablePercent: 90, queuing: q(128, 6) },
];

const requests = 200_000;
const rounds = 5;

async function loop(admit: (r: AdmitRequest) => Promise<AdmitResult>, reqs: readonly AdmitRequest[]): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < requests; i++) {
    const r = await admit(reqs[i % reqs.length] as AdmitRequest);
    if (r.admitted) r.finish();
  }
  return ((performance.now() - start) * 1e6) / requests;
}

/** Runs the apf admit micro-benchmark (no server). */
export async function apfDispatchBenchmark(_ctx: BenchContext): Promise<BenchResult[]> {
  const d = createFlowDispatcher({ serverConcurrencyLimit: 600, queueWaitLimitMs: 15_000, registry: new KubeRegistry() });
  d.setPriorityLevels(levels);
  const requestInfo = parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps/target', new URLSearchParams());
  const signal = new AbortController().signal;
  const reqs: AdmitRequest[] = Array.from({ length: 64 }, (_, i) => ({
    classification: { flowSchemaName: 'global-default', flowSchemaUID: 'fs', priorityLevelName: 'global-default', priorityLevelUID: '2', flowDistinguisher: `user-${i}`, exempt: false },
    work: { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 },
    signal,
    user: { name: `user-${i}`, groups: ['system:authenticated'] },
    requestInfo,
    mutating: false,
  }));
  const admitted: AdmitResult = { admitted: true, finish: () => undefined };
  const baselineAdmit = (): Promise<AdmitResult> => Promise.resolve(admitted);
  const apf: number[] = [];
  const base: number[] = [];
  await loop((r) => d.admit(r), reqs);
  await loop(baselineAdmit, reqs);
  for (let i = 0; i < rounds; i++) {
    apf.push(await loop((r) => d.admit(r), reqs));
    base.push(await loop(baselineAdmit, reqs));
  }
  d.stop();
  const value = median(apf);
  const baselineValue = median(base);
  return [
    result({
      name: 'apf admit',
      measured: `${value.toFixed(0)} ns/request`,
      baseline: `resolved await ${baselineValue.toFixed(0)} ns`,
      value,
      baselineValue,
      ratio: median(apf.map((a, i) => a / (base[i] as number))),
      target: { on: 'ratio', op: '<=', threshold: 12, text: '<= 12x' },
      figures: { apf, base, requests, rounds },
    }),
  ];
}
