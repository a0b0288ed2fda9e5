/**
 * informer start-up: 100 clients start at once against the 10,000 seeded Pods, each as client-go's
 * reflector does: LIST with resourceVersion=0&limit=500 (following continue), then WATCH from the
 * list's resourceVersion; and again as a watch list (sendInitialEvents=true,
 * resourceVersionMatch=NotOlderThan, allowWatchBookmarks=true), synced at the initial-events-end
 * bookmark. Reports the server's peak memory during start-up against its steady state once every
 * client is synced and watching (both heapUsed + external; the steady state after a full GC).
 */
import { newClient, type Client } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath } from '../objects.js';
import { result, type BenchResult } from '../results.js';
import { formatBytes, formatMs, median, ratio } from '../stats.js';
import { LineSplitter, eventType, stringField } from '../watch-stream.js';

const clients = 100;
const deadlineMs = 150_000;

/** How an informer syncs: LIST (paged by 500 from resourceVersion=0) then WATCH, or one watch list. */
export type Mode = 'list-watch' | 'watch-list';

/** Counts needle in a stream of chunks, including matches split across chunks. */
class OccurrenceCounter {
  count = 0;
  private tail = Buffer.alloc(0);
  constructor(private readonly needle: Buffer) {}
  push(chunk: Buffer): void {
    const buf = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
    for (let at = buf.indexOf(this.needle); at >= 0; at = buf.indexOf(this.needle, at + this.needle.length)) this.count++;
    this.tail = Buffer.from(buf.subarray(Math.max(0, buf.length - (this.needle.length - 1))));
  }
}

/** One informer as client-go's reflector (or a watch list): resolves with the objects it received once synced (its watch stays open). */
export async function startInformer(client: Client, path: string, mode: Mode): Promise<number> {
  if (mode === 'watch-list') {
    let objects = 0;
    return await new Promise<number>((resolve, reject) => {
      const splitter = new LineSplitter((line) => {
        const type = eventType(line);
        if (type === 'ADDED') objects++;
        else if (type === 'BOOKMARK' && line.includes('k8s.io/initial-events-end')) resolve(objects);
      });
      client
        .stream('GET', `${path}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=600`, (c) => splitter.push(c), (res) => {
          if (res.statusCode !== 200) reject(new Error(`watch list: HTTP ${res.statusCode}`));
        })
        .then(() => reject(new Error('watch list ended before its initial-events-end bookmark')), reject);
    });
  }
  let cont: string | undefined;
  let rv: string | undefined;
  const items = new OccurrenceCounter(Buffer.from('"uid":"'));
  do {
    const query: string = cont ? `?limit=500&continue=${encodeURIComponent(cont)}` : '?resourceVersion=0&limit=500';
    let head: Buffer = Buffer.alloc(0);
    const status = await client.stream('GET', `${path}${query}`, (chunk) => {
      if (head.length < 4096) head = Buffer.concat([head, chunk]).subarray(0, 4096);
      items.push(chunk);
    });
    if (status !== 200) throw new Error(`list: HTTP ${status}: ${head.toString('utf8', 0, 300)}`);
    rv ??= stringField(head, 'resourceVersion');
    cont = stringField(head, 'continue');
  } while (cont);
  return await new Promise<number>((resolve, reject) => {
    client
      .stream('GET', `${path}?watch=1&resourceVersion=${rv ?? ''}&allowWatchBookmarks=true&timeoutSeconds=600`, () => undefined, (res) => {
        if (res.statusCode === 200) resolve(items.count);
        else reject(new Error(`watch: HTTP ${res.statusCode}`));
      })
      .catch(reject);
  });
}

async function startup(ctx: BenchContext, mode: Mode): Promise<BenchResult> {
  const path = collectionPath(ctx.listNamespace, 'pods');
  const name = `informers ${mode}`;
  // The watch list needs the WatchList gate, off by default in kube 1.33.
  return await withServer(await ctx.apiServer(undefined, ['--feature-gates=WatchList=true']), async (server) => {
    const idle = await server.mark();
    const client = newClient(server.port, server.ca, Number.POSITIVE_INFINITY);
    ctx.log(`${name}: ${clients} clients at once over ${ctx.listCount} Pods`);
    const started = performance.now();
    const syncMs: number[] = [];
    const failures: string[] = [];
    const counts: number[] = [];
    let timer: NodeJS.Timeout | undefined;
    const all = Promise.all(
      Array.from({ length: clients }, () =>
        startInformer(client, path, mode).then(
          (n) => {
            counts.push(n);
            syncMs.push(performance.now() - started);
          },
          (err: unknown) => {
            failures.push((err as Error).message);
          },
        ),
      ),
    );
    const finished = await server.profile(`informers-${mode}`, () =>
      Promise.race([all.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), deadlineMs)))]),
    );
    clearTimeout(timer);
    const elapsed = performance.now() - started;
    try {
      const peak = await server.peak();
      const steady = await server.memory(true);
      client.close();
      const idleTotal = idle.heapUsed + idle.external;
      const peakTotal = peak.peakHeapExternal;
      const steadyTotal = steady.heapUsed + steady.external;
      const notes: string[] = [];
      if (!finished) notes.push(`only ${syncMs.length} of ${clients} clients synced within ${formatMs(deadlineMs)}`);
      if (failures.length > 0) notes.push(`${failures.length} clients failed, e.g. ${failures[0]}`);
      const wrong = counts.filter((c) => c !== ctx.listCount).length;
      if (wrong > 0) notes.push(`${wrong} clients saw a number of objects other than ${ctx.listCount}`);
      return result({
        name,
        measured:
          syncMs.length === clients
            ? `peak ${formatBytes(peakTotal)}, all synced in ${formatMs(Math.max(...syncMs))}`
            : `${syncMs.length}/${clients} synced, peak ${formatBytes(peakTotal)}`,
        baseline: `steady ${formatBytes(steadyTotal)}`,
        value: peakTotal,
        baselineValue: steadyTotal,
        ratio: ratio(peakTotal, steadyTotal),
        ...(finished && failures.length === 0 ? {} : { status: 'FAILED' as const }),
        figures: {
          clients,
          idleHeapExternal: idleTotal,
          peakHeapExternal: peakTotal,
          steadyHeapExternal: steadyTotal,
          peakRss: peak.peakRss,
          hwmRss: peak.hwmRss,
          idleRss: idle.rss,
          steadyRss: steady.rss,
          synced: syncMs.length,
          medianSyncMs: median(syncMs),
          lastSyncMs: Math.max(...syncMs, 0),
          elapsedMs: elapsed,
          failures: failures.slice(0, 5),
        },
        notes: [...notes, `memory is heapUsed + external; idle before the clients: ${formatBytes(idleTotal)}; peak RSS ${formatBytes(peak.hwmRss ?? peak.peakRss)}`],
      });
    } catch (err) {
      client.close();
      return result({ name, measured: `server failed: ${(err as Error).message}`, value: Number.NaN, status: 'FAILED', figures: { synced: syncMs.length, failures: failures.slice(0, 5), elapsedMs: elapsed } });
    }
  });
}

/** Runs the informer start-up benchmark in both modes. */
export async function informerStartupBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  return [await startup(ctx, 'list-watch'), await startup(ctx, 'watch-list')];
}
