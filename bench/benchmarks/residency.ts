/**
 * watch cache residency: what the server keeps per object. A fresh server lists the resource once
 * from its cache (so that the cache, where there is one, holds every existing object) and creates a warm-up batch, is GC'd and
 * measured; then N ConfigMaps of about 1 KiB are created, the server lists them from
 * resourceVersion=0 until it sees them all (when it has a cache), is GC'd and measured again.
 * (heapUsed + external) delta / N / the object's JSON size; target <= 1.5x. Without a watch cache
 * there is nothing to measure, and the line says so instead of passing.
 */
import { callOk, ensureNamespace, newClient, ServerFailure } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath, configMap } from '../objects.js';
import { result, type BenchResult } from '../results.js';
import { seed } from '../seed.js';
import { formatBytes, formatMs, ratio } from '../stats.js';

const objects = 10_000;
const warmupObjects = 1_000;

/** Runs the residency benchmark. */
export async function residencyBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const namespace = 'bench-residency';
  const path = collectionPath(namespace, 'configmaps');
  return await withServer(await ctx.apiServer(), async (server) => {
    const client = newClient(server.port, server.ca);
    await ensureNamespace(client, namespace);
    // An unpaged resourceVersion=0 list is answered from the cache once it holds every existing
    // ConfigMap (429 while it initializes): then the baseline includes what was there before.
    const primeStart = performance.now();
    while (ctx.watchCacheFlag) {
      const primed = await client.call('GET', `${path}?resourceVersion=0`);
      if (primed.status === 200) break;
      if (primed.status !== 429 || performance.now() - primeStart > 60_000) throw new ServerFailure(`residency: priming list answered HTTP ${primed.status}`);
    }
    const runId = Date.now().toString(36);
    // A first batch before the baseline, so that the baseline already holds what any first use
    // costs (optimised code, pools, connections: about 4 MiB, measured the same without a cache).
    const warm = await seed(client, path, warmupObjects, (i) => configMap({ name: `r-${runId}-warm-${i}` }, 1024));
    if (warm.failed > 0) throw new ServerFailure(`residency: ${warm.failed} warm-up creates failed: ${warm.errors.join('; ')}`);
    const before = await server.memory(true);
    ctx.log(`residency: creating ${objects} ConfigMaps`);
    const made = await server.profile('residency-creates', () => seed(client, path, objects, (i) => configMap({ name: `r-${runId}-${i}` }, 1024)));
    if (made.failed > 0) throw new ServerFailure(`residency: ${made.failed} creates failed: ${made.errors.join('; ')}`);
    const one = await callOk<Record<string, unknown>>(client, 'GET', `${path}/r-${runId}-0`);
    const jsonBytes = Buffer.byteLength(JSON.stringify(one));
    // A cache applies writes asynchronously: wait until a resourceVersion=0 list shows them all.
    // Without one there is nothing to wait for (and a whole 10 MiB list would only add garbage).
    let seen = 0;
    let listError: string | undefined;
    const waitStart = performance.now();
    while (ctx.watchCacheFlag && performance.now() - waitStart < 15_000) {
      const list = await client.call('GET', `${path}?resourceVersion=0`);
      if (list.status !== 200) {
        listError = `the resourceVersion=0 list answered HTTP ${list.status}: ${list.body.toString('utf8').slice(0, 200)}`;
        break;
      }
      seen = (list.body.toString('latin1').match(new RegExp(`"name":"r-${runId}-\\d`, 'g')) ?? []).length;
      if (seen >= objects) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    client.close();
    const after = await server.memory(true);
    const delta = after.heapUsed + after.external - (before.heapUsed + before.external);
    const perObject = delta / objects;
    const r = ratio(perObject, jsonBytes);
    const notes = [
      `${objects} objects created in ${formatMs(made.ms)}${ctx.watchCacheFlag && !listError ? `; a resourceVersion=0 list showed ${seen} of them` : ''}`,
      `heapUsed ${formatBytes(after.heapUsed - before.heapUsed)}, external ${formatBytes(after.external - before.external)}, rss ${formatBytes(after.rss - before.rss)} more after a full GC`,
    ];
    if (listError) notes.push(listError);
    // With a cache, the figure is about cached objects only once the cache is seen to hold them.
    const unconfirmed = ctx.watchCacheFlag && seen < objects;
    if (unconfirmed) notes.push(`the server's resourceVersion=0 list did not show the ${objects} objects (saw ${seen}), so the figure is not of cached objects`);
    if (!ctx.watchCacheFlag) {
      notes.push('this build has no watch cache (no --watch-cache flag): the figure is what the uncached server keeps per object, so the target is not judged');
    }
    return [
      result({
        name: 'cache residency',
        measured: `${formatBytes(perObject)}/object`,
        baseline: `JSON ${formatBytes(jsonBytes)}`,
        value: perObject,
        baselineValue: jsonBytes,
        ratio: r,
        ...(ctx.watchCacheFlag
          ? { target: { on: 'ratio', op: '<=', threshold: 1.5, text: '<= 1.5x' } as const, ...(unconfirmed ? { status: 'MISSED' as const } : {}) }
          : { status: 'info' as const, unjudged: 'target <= 1.5x not judged: no watch cache' }),
        figures: { objects, jsonBytes, before, after, deltaBytes: delta, perObjectBytes: perObject, seenInList: seen },
        notes,
      }),
    ];
  });
}
