/**
 * startup-storm (issue 17): 100 informers (client-go's LIST resourceVersion=0&limit=500 pages,
 * then WATCH) hit a FRESH server the moment it serves, while its watch caches still load 30,000
 * other objects (ConfigMaps and Secrets) besides the 10,000 seeded Pods the informers want. The
 * server runs on an etcd prefix of its own (bench/storm-seed.ts), so the row does not depend on
 * what earlier benchmarks left in etcd. Target: all 100 synced within 10 s of the server serving.
 */
import { newClient } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath } from '../objects.js';
import { result, type BenchResult } from '../results.js';
import { formatMs, median } from '../stats.js';
import { seedStorm } from '../storm-seed.js';
import { startInformer } from './informer-startup.js';

const clients = 100;
const others = 30_000;
const prefix = '/bench-storm';
const deadlineMs = 60_000;

/** Runs the start-up storm. */
export async function startupStormBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const seeded = await seedStorm(ctx.etcdEndpoint, `${prefix}/`, others, ctx.listNamespace);
  ctx.log(`startup storm: ${seeded.others} other objects and ${seeded.pods} Pods written under ${prefix}/ in ${formatMs(seeded.ms)}`);
  const spawned = performance.now();
  return await withServer(await ctx.apiServer({ etcdPrefix: prefix }), async (server) => {
    const started = performance.now();
    const client = newClient(server.port, server.ca, Number.POSITIVE_INFINITY);
    ctx.log(`startup storm: server served ${formatMs(started - spawned)} after spawning; ${clients} informers at once over ${ctx.listCount} Pods`);
    const syncMs: number[] = [];
    const counts: number[] = [];
    const failures: string[] = [];
    const path = collectionPath(ctx.listNamespace, 'pods');
    const all = Promise.all(
      Array.from({ length: clients }, () =>
        startInformer(client, path, 'list-watch').then(
          (n) => {
            counts.push(n);
            syncMs.push(performance.now() - started);
          },
          (err: unknown) => void failures.push((err as Error).message),
        ),
      ),
    );
    let timer: NodeJS.Timeout | undefined;
    await server.profile('startup-storm', () => Promise.race([all, new Promise<void>((r) => (timer = setTimeout(r, deadlineMs)))]));
    clearTimeout(timer);
    client.close();
    const last = syncMs.length === clients ? Math.max(...syncMs) : Number.POSITIVE_INFINITY;
    const notes = [`server start-up (spawn to serving) ${formatMs(started - spawned)}, not counted`];
    if (syncMs.length < clients) notes.push(`only ${syncMs.length} of ${clients} synced within ${formatMs(deadlineMs)}`);
    if (failures.length > 0) notes.push(`${failures.length} informers failed, e.g. ${failures[0]}`);
    const wrong = counts.filter((c) => c !== ctx.listCount).length;
    if (wrong > 0) notes.push(`${wrong} informers saw a number of Pods other than ${ctx.listCount}`);
    return [
      result({
        name: 'startup storm 100 informers',
        measured: syncMs.length === clients ? `all synced in ${formatMs(last)}` : `${syncMs.length}/${clients} synced in ${formatMs(deadlineMs)}`,
        baseline: `${others} other objects`,
        value: last,
        target: { on: 'value', op: '<', threshold: 10_000, text: '< 10 s' },
        ...(wrong > 0 || failures.length > 0 ? { status: 'FAILED' as const } : {}),
        figures: { clients, others, pods: ctx.listCount, seededMs: seeded.ms, serveMs: started - spawned, medianSyncMs: median(syncMs), lastSyncMs: last, synced: syncMs.length, failures: failures.slice(0, 5) },
        notes,
      }),
    ];
  });
}
