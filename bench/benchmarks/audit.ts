/**
 * audit: what the audit log costs on the write path. Creates/s (POST of 1 KiB ConfigMaps, 64 in
 * flight) against a server writing every request to an audit log file at level Metadata (json
 * format, kube's default blocking mode), against the same load on a server without an audit policy.
 * Both servers run side by side on the same etcd, are warmed first, and are loaded in alternating
 * rounds whose order flips every round; the ratio is the median of the rounds'. Each server's own
 * CPU per answered request (from /proc) is noted too, and the log's bytes per request.
 * Target: at most 10% slower (>= 0.9x).
 */
import { stat, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { throughput, type Throughput } from '../cannon.js';
import { ensureNamespace, newClient } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import type { ServerHandle } from '../server-handle.js';
import { collectionPath, configMap } from '../objects.js';
import { result, type BenchResult } from '../results.js';
import { measure, type Measured } from '../server-cpu.js';
import { formatRate, median, ratio } from '../stats.js';

const connections = 64;
const seconds = 3;
const rounds = 5;
const namespace = 'bench-audit';

const metadataPolicy = ['apiVersion: audit.k8s.io/v1', 'kind: Policy', 'rules:', '- level: Metadata', ''].join('\n');

/** Runs the audit benchmark. */
export async function auditBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-bench-audit-'));
  try {
    const policyFile = join(dir, 'policy.yaml');
    const logFile = join(dir, 'audit.log');
    await writeFile(policyFile, metadataPolicy);
    const body = JSON.stringify(configMap({ generateName: 'a-' }, 1024));
    const load = (s: ServerHandle): Promise<Throughput> =>
      throughput({ port: s.port, ca: s.ca, path: collectionPath(namespace, 'configmaps'), method: 'POST', body, connections, warmupSeconds: 0, seconds });
    const audited: Measured[] = [];
    const plain: Measured[] = [];
    let logBytesPerRequest = Number.NaN;
    await withServer(await ctx.apiServer(undefined, [`--audit-policy-file=${policyFile}`, `--audit-log-path=${logFile}`]), async (withAudit) => {
      await withServer(await ctx.apiServer(), async (without) => {
        for (const s of [withAudit, without]) {
          const client = newClient(s.port, s.ca, 1);
          try {
            await ensureNamespace(client, namespace);
          } finally {
            client.close();
          }
        }
        ctx.log(`audit: ${rounds} rounds of ${seconds}s creates, audit log at Metadata then no audit, ${connections} connections`);
        await load(withAudit);
        await load(without);
        const bytesBefore = (await stat(logFile)).size;
        let auditedRequests = 0;
        await withAudit.profile('audit', async () => {
          for (let r = 0; r < rounds; r++) {
            const runAudited = async (): Promise<void> => {
              const m = await measure(withAudit, () => load(withAudit));
              auditedRequests += m.throughput.ok + m.throughput.failed;
              audited.push(m);
            };
            const runPlain = async (): Promise<void> => void plain.push(await measure(without, () => load(without)));
            if (r % 2 === 0) {
              await runAudited();
              await runPlain();
            } else {
              await runPlain();
              await runAudited();
            }
          }
        });
        logBytesPerRequest = ((await stat(logFile)).size - bytesBefore) / Math.max(1, auditedRequests);
      });
    });
    const a = audited.map((m) => m.throughput);
    const p = plain.map((m) => m.throughput);
    const ratios = a.map((x, j) => ratio(x.perSecond, (p[j] as Throughput).perSecond));
    const cpuAudited = median(audited.map((m) => m.cpuMicrosPerRequest));
    const cpuPlain = median(plain.map((m) => m.cpuMicrosPerRequest));
    const notes = [
      `per round: ${a.map((x, j) => `${formatRate(x.perSecond)}/${formatRate((p[j] as Throughput).perSecond)}`).join(', ')} (audit/none)`,
      `server CPU per request (median of rounds, from /proc): ${cpuAudited.toFixed(0)} µs against ${cpuPlain.toFixed(0)} µs = ${(cpuAudited / cpuPlain).toFixed(2)}x`,
      `audit log: ${logBytesPerRequest.toFixed(0)} bytes per request (two events: RequestReceived and ResponseComplete)`,
    ];
    const failed = a.reduce((n, x) => n + x.failed, 0) + p.reduce((n, x) => n + x.failed, 0);
    if (failed > 0) notes.push(`${failed} requests did not answer 2xx: ${JSON.stringify([...a, ...p].map((x) => x.statusCodes))}`);
    const rate = median(a.map((x) => x.perSecond));
    const base = median(p.map((x) => x.perSecond));
    return [
      result({
        name: 'creates audit Metadata',
        measured: `${formatRate(rate)}/s`,
        baseline: `no audit ${formatRate(base)}/s`,
        value: rate,
        baselineValue: base,
        ratio: median(ratios),
        target: { on: 'ratio', op: '>=', threshold: 0.9, text: '>= 0.9x (at most 10% slower)' },
        figures: { audited: a, plain: p, ratios, cpuMicrosPerRequest: { audited: cpuAudited, plain: cpuPlain }, logBytesPerRequest, connections, seconds, rounds },
        notes,
      }),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
