/**
 * creates: POST of 1 KiB ConfigMaps over HTTPS with 64 in flight, against the baseline of raw
 * etcd create transactions (compare mod_revision == 0, then put) from the etcd3 client with 64 in
 * flight. The two alternate in rounds so that other load on the machine hits both alike; the
 * ratio is the median of the rounds' ratios. Target: creates/s >= 0.5x raw etcd.
 */
import { throughput, type Throughput } from '../cannon.js';
import { ensureNamespace, newClient } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath, configMap } from '../objects.js';
import { result, type BenchResult } from '../results.js';
import { rawEtcd, type RawRun } from '../raw-etcd.js';
import { formatRate, median, ratio } from '../stats.js';

const inFlight = 64;
const warmupSeconds = 1;
const seconds = 3;
const rounds = 3;

/** Runs the creates benchmark. */
export async function createsBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const namespace = 'bench-creates';
  const body = JSON.stringify(configMap({ generateName: 'c-' }, 1024));
  const etcd = rawEtcd(ctx.etcdEndpoint, 1024, inFlight);
  const api: Throughput[] = [];
  const raw: RawRun[] = [];
  try {
    await withServer(await ctx.apiServer(), async (server) => {
      const client = newClient(server.port, server.ca);
      await ensureNamespace(client, namespace);
      client.close();
      const load = { port: server.port, ca: server.ca, path: collectionPath(namespace, 'configmaps'), method: 'POST' as const, body, connections: inFlight, seconds };
      ctx.log(`creates: ${rounds} rounds of ${seconds}s POSTs of ${Buffer.byteLength(body)}-byte ConfigMaps, then ${seconds}s of raw etcd guarded puts, ${inFlight} in flight`);
      await server.profile('creates', async () => {
        for (let r = 0; r < rounds; r++) {
          api.push(await throughput({ ...load, warmupSeconds: r === 0 ? warmupSeconds : 0 }));
          if (r === 0) await etcd.creates(warmupSeconds);
          raw.push(await etcd.creates(seconds));
        }
      });
    });
  } finally {
    await etcd.close();
  }
  const ratios = api.map((a, i) => ratio(a.perSecond, (raw[i] as RawRun).perSecond));
  const apiRate = median(api.map((a) => a.perSecond));
  const etcdRate = median(raw.map((e) => e.perSecond));
  const notes: string[] = [`per round: ${api.map((a, i) => `${formatRate(a.perSecond)}/${formatRate((raw[i] as RawRun).perSecond)}`).join(', ')} (API/etcd)`];
  const failed = api.reduce((n, a) => n + a.failed, 0);
  if (failed > 0) notes.push(`${failed} POSTs did not answer 2xx: ${JSON.stringify(api.map((a) => a.statusCodes))}`);
  const rawFailed = raw.reduce((n, e) => n + e.failed, 0);
  if (rawFailed > 0) notes.push(`${rawFailed} raw etcd transactions failed or lost the compare`);
  return [
    result({
      name: 'creates',
      measured: `${formatRate(apiRate)}/s`,
      baseline: `etcd ${formatRate(etcdRate)}/s`,
      value: apiRate,
      baselineValue: etcdRate,
      ratio: median(ratios),
      target: { on: 'ratio', op: '>=', threshold: 0.5, text: '>= 0.5x' },
      figures: { api, etcd: raw, ratios, inFlight, seconds, rounds, bodyBytes: Buffer.byteLength(body) },
      notes,
    }),
  ];
}
