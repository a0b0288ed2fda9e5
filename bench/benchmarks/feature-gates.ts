/**
 * feature gates: what ConsistentListFromCache (kube 1.33: on) buys. The seeded 10,000 Pods listed
 * at the most recent version (no resourceVersion, the consistent read clients make by default) on
 * a server with the gates' defaults (served from the watch cache once it is proven current)
 * against a server started with --feature-gates=ConsistentListFromCache=false (read from etcd),
 * both on the same etcd, in alternating rounds. The ratio is etcd's median time over the cache's:
 * above 1 means the gate pays. Information only, no target.
 */
import { newClient, serverFailure, type Client } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath } from '../objects.js';
import { result, type BenchResult } from '../results.js';
import { formatMs, median, ratio } from '../stats.js';

const rounds = 5;
const warmups = 2;

async function timedList(client: Client, path: string): Promise<number> {
  const started = performance.now();
  const reply = await client.call('GET', path);
  if (reply.status !== 200) throw serverFailure('GET', path, reply.status, reply.body);
  return performance.now() - started;
}

/** Runs the feature gates benchmark. */
export async function featureGatesBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const path = collectionPath(ctx.listNamespace, 'pods');
  const cache: number[] = [];
  const etcd: number[] = [];
  await withServer(await ctx.apiServer(), async (withGate) => {
    await withServer(await ctx.apiServer(undefined, ['--feature-gates=ConsistentListFromCache=false']), async (withoutGate) => {
      const a = newClient(withGate.port, withGate.ca);
      const b = newClient(withoutGate.port, withoutGate.ca);
      ctx.log(`feature gates: ${rounds} consistent lists of the seeded pods from the cache (default) and from etcd (ConsistentListFromCache=false), alternating`);
      for (let i = 0; i < warmups; i++) {
        await timedList(a, path);
        await timedList(b, path);
      }
      for (let i = 0; i < rounds; i++) {
        cache.push(await timedList(a, path));
        etcd.push(await timedList(b, path));
      }
      a.close();
      b.close();
    });
  });
  const fromCache = median(cache);
  const fromEtcd = median(etcd);
  return [
    result({
      name: 'consistent list, ConsistentListFromCache on',
      measured: formatMs(fromCache),
      baseline: `gate off (etcd) ${formatMs(fromEtcd)}`,
      value: fromCache,
      baselineValue: fromEtcd,
      ratio: ratio(fromEtcd, fromCache),
      figures: { cache, etcd, rounds },
    }),
  ];
}
