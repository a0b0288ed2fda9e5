/**
 * audit: what the audit log costs on the request path. Creates/s (POST of 1 KiB ConfigMaps, 64 in
 * flight) and cached GET/s (resourceVersion=0, 64 connections) against a server writing every
 * request to an audit log file at level Metadata (json, kube's default blocking mode: each event
 * is written before the response goes out), against the same loads on a server without an audit
 * policy, in alternating A/B rounds (bench/ab-rounds.ts). The log's bytes per request are noted.
 * Creates are bound by etcd's disk writes here, so their ratio mostly shows that the audit log
 * does not slow the write path; the cached GET, bound by the server's CPU, shows what each
 * event costs. Target: at most 10% slower (>= 0.9x).
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { abResult, runAbRounds, type AbMeasurements, type AbWorkload } from '../ab-rounds.js';
import { throughput } from '../cannon.js';
import { ensureTargetConfigMap } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath, configMap } from '../objects.js';
import { auditFlags } from '../production-chain.js';
import type { BenchResult } from '../results.js';

const connections = 64;
const seconds = 3;
const rounds = 5;
const namespace = 'bench-audit';

/** Runs the audit benchmark. */
export async function auditBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-bench-audit-'));
  try {
    const { flags, logFile } = await auditFlags(dir);
    const body = JSON.stringify(configMap({ generateName: 'a-' }, 1024));
    const requests = new Map<string, number>();
    const counted = async (name: string, side: 'a' | 'b', run: Promise<Awaited<ReturnType<typeof throughput>>>): Promise<Awaited<ReturnType<typeof throughput>>> => {
      const t = await run;
      if (side === 'a') requests.set(name, (requests.get(name) ?? 0) + t.ok + t.failed);
      return t;
    };
    const bytes = new Map<string, number>();
    const workloads: AbWorkload[] = [
      {
        name: 'creates',
        load: (s, side) => counted('creates', side, throughput({ port: s.port, ca: s.ca, path: collectionPath(namespace, 'configmaps'), method: 'POST', body, connections, warmupSeconds: 0, seconds })),
      },
      {
        name: 'cached GET',
        load: (s, side) => counted('cached GET', side, throughput({ port: s.port, ca: s.ca, path: `${collectionPath(namespace, 'configmaps')}/target?resourceVersion=0`, connections, warmupSeconds: 0, seconds })),
      },
    ];
    // The log's growth per workload, measured around each audited run.
    const measuredWorkloads: AbWorkload[] = workloads.map((w) => ({
      name: w.name,
      load: async (s, side) => {
        if (side === 'b') return await w.load(s, side);
        const before = (await stat(logFile)).size;
        const t = await w.load(s, side);
        bytes.set(w.name, (bytes.get(w.name) ?? 0) + (await stat(logFile)).size - before);
        return t;
      },
    }));
    let measured: AbMeasurements | undefined;
    await withServer(await ctx.apiServer(undefined, flags), async (audited) => {
      await withServer(await ctx.apiServer(), async (plain) => {
        await ensureTargetConfigMap([audited, plain], namespace);
        ctx.log(`audit: ${rounds} rounds of ${seconds}s creates and cached GETs, audit log at Metadata then no audit, ${connections} connections`);
        measured = await audited.profile('audit', () => runAbRounds(audited, plain, measuredWorkloads, rounds));
      });
    });
    const m = measured as AbMeasurements;
    return workloads.map((w, i) => {
      // The warm-up run is counted in requests and bytes alike.
      const perRequest = (bytes.get(w.name) ?? 0) / Math.max(1, requests.get(w.name) ?? 0);
      return abResult(m, i, {
        name: `${w.name} audit Metadata`,
        aLabel: 'audit',
        bLabel: 'no audit',
        threshold: 0.9,
        extraNotes: [`audit log: ${perRequest.toFixed(0)} bytes per request (RequestReceived and ResponseComplete events)`],
        extraFigures: { logBytesPerRequest: perRequest, connections, seconds },
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
