/**
 * LIST of the seeded 10,000 Pods: whole with resourceVersion=0 (the watch cache's answer once it
 * exists) and from etcd paged by 500 (limit=500 and continue, no resourceVersion). Median time
 * over several runs, and the server's peak extra memory (over a GC'd baseline) against the bytes
 * of the response. Targets for resourceVersion=0: median <= 50 ms, peak extra <= 2x the response.
 */
import { newClient, serverFailure, ServerFailure, type Client } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath } from '../objects.js';
import { result, type BenchResult } from '../results.js';
import type { ServerHandle } from '../server-handle.js';
import { formatBytes, formatMs, median, ratio } from '../stats.js';
import { stringField } from '../watch-stream.js';

const runs = 7;
/** Unmeasured runs first: the server's code paths are compiled and warm, as in a running cluster. */
const warmups = 3;
/** Lists measured for memory (each after a full GC in the server). */
const memoryRuns = 3;

/** One timed list (all pages) and the memory it cost the server. */
interface ListRun {
  readonly ms: number;
  readonly bytes: number;
  readonly pages: number;
  readonly items: number;
  readonly peakExtraHeap: number;
  readonly peakExtraRss?: number;
}

async function listOnce(client: Client, path: string, pageLimit: number | undefined): Promise<Omit<ListRun, 'peakExtraHeap' | 'peakExtraRss'>> {
  const started = performance.now();
  let bytes = 0;
  let pages = 0;
  let items = 0;
  let cont: string | undefined;
  do {
    const query = pageLimit ? `?limit=${pageLimit}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}` : '?resourceVersion=0';
    let head: Buffer = Buffer.alloc(0);
    let pageBytes = 0;
    // Items are counted by their uid as the chunks arrive (a marker may straddle two chunks), so
    // the client neither keeps nor copies the body: its cost stays out of the server's time.
    const marker = Buffer.from('"uid":"');
    let tail: Buffer = Buffer.alloc(0);
    let okStatus = true;
    const errorChunks: Buffer[] = [];
    const status = await client.stream(
      'GET',
      `${path}${query}`,
      (chunk) => {
        pageBytes += chunk.length;
        if (head.length < 4096) head = Buffer.concat([head, chunk]).subarray(0, 4096);
        if (!okStatus) {
          errorChunks.push(chunk);
          return;
        }
        const joined = tail.length > 0 ? Buffer.concat([tail, chunk.subarray(0, marker.length)]) : undefined;
        if (joined) for (let at = joined.indexOf(marker); at >= 0 && at < tail.length; at = joined.indexOf(marker, at + 1)) items++;
        for (let at = chunk.indexOf(marker); at >= 0; at = chunk.indexOf(marker, at + marker.length)) items++;
        tail = chunk.subarray(Math.max(0, chunk.length - marker.length + 1));
      },
      (res) => {
        okStatus = res.statusCode === 200;
      },
    );
    if (status !== 200) throw serverFailure('GET', `${path}${query}`, status, Buffer.concat(errorChunks));
    bytes += pageBytes;
    pages++;
    cont = pageLimit ? stringField(head, 'continue') : undefined;
  } while (cont);
  return { ms: performance.now() - started, bytes, pages, items };
}

/** One list after a full GC in the server: the peak extra memory it cost over that baseline. */
async function measureMemory(server: ServerHandle, client: Client, path: string, pageLimit: number | undefined): Promise<{ peakExtraHeap: number; peakExtraRss?: number }> {
  await server.mark();
  await listOnce(client, path, pageLimit);
  const peak = await server.peak();
  const base = peak.baseline.heapUsed + peak.baseline.external;
  return {
    peakExtraHeap: peak.peakHeapExternal - base,
    ...(peak.hwmRss !== undefined ? { peakExtraRss: peak.hwmRss - peak.baseline.rss } : {}),
  };
}

/**
 * Warm-ups, then timed runs, then memory runs. They are separate because the memory baseline needs
 * a forced full GC in the server, and a list right after one runs on a freshly shrunk heap (about
 * 1.5x slower here, with or without a pause): a harness state, not a running server's.
 */
async function series(server: ServerHandle, client: Client, path: string, pageLimit: number | undefined): Promise<ListRun[]> {
  for (let i = 0; i < warmups; i++) await listOnce(client, path, pageLimit);
  const timed: Array<Omit<ListRun, 'peakExtraHeap' | 'peakExtraRss'>> = [];
  for (let i = 0; i < runs; i++) timed.push(await listOnce(client, path, pageLimit));
  const out: ListRun[] = [];
  for (const [i, run] of timed.entries()) out.push({ ...run, ...(i < memoryRuns ? await measureMemory(server, client, path, pageLimit) : { peakExtraHeap: Number.NEGATIVE_INFINITY }) });
  return out;
}

function summarise(list: readonly ListRun[]): { medianMs: number; runMs: number[]; bytes: number; items: number; pages: number; maxPeakExtraHeap: number; maxPeakExtraRss?: number } {
  const rss = list.map((r) => r.peakExtraRss).filter((v): v is number => v !== undefined);
  return {
    medianMs: median(list.map((r) => r.ms)),
    runMs: list.map((r) => Math.round(r.ms * 10) / 10),
    bytes: list[0]?.bytes ?? 0,
    items: list[0]?.items ?? 0,
    pages: list[0]?.pages ?? 0,
    maxPeakExtraHeap: Math.max(...list.map((r) => r.peakExtraHeap)),
    ...(rss.length > 0 ? { maxPeakExtraRss: Math.max(...rss) } : {}),
  };
}

type Summary = ReturnType<typeof summarise> & { readonly runs: readonly ListRun[] };
/** A series' outcome: its summary, or the error that stopped it (a server failure, not the harness's). */
type Outcome = { readonly ok: true; readonly s: Summary } | { readonly ok: false; readonly error: string };

async function attempt(server: ServerHandle, client: Client, path: string, pageLimit: number | undefined, label: string): Promise<Outcome> {
  try {
    const r = await server.profile(label, () => series(server, client, path, pageLimit));
    return { ok: true, s: { runs: r, ...summarise(r) } };
  } catch (err) {
    if (!(err instanceof ServerFailure)) throw err;
    return { ok: false, error: err.message };
  }
}

/** Runs the LIST benchmark. */
export async function listBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const path = collectionPath(ctx.listNamespace, 'pods');
  const { cached, paged } = await withServer(await ctx.apiServer(), async (server) => {
    const client = newClient(server.port, server.ca, 1);
    // Paged first: a failed whole list can leave the server's etcd client refusing calls for a while.
    ctx.log(`list: ${ctx.listCount} Pods from etcd paged by 500, ${runs} runs after ${warmups} warm-ups`);
    const p = await attempt(server, client, path, 500, 'list-paged');
    ctx.log(`list: ${ctx.listCount} Pods with resourceVersion=0, ${runs} runs after ${warmups} warm-ups`);
    const c = await attempt(server, client, path, undefined, 'list-rv0');
    client.close();
    return { cached: c, paged: p };
  });
  const memNote = "peak extra = highest (heapUsed + external) sampled every 10 ms in the server minus its GC'd baseline, worst of the runs";
  const countNote = (s: Summary, what: string): string[] => (s.items === ctx.listCount ? [] : [`${what} returned ${s.items} items, expected ${ctx.listCount}`]);
  const timeTarget = { on: 'value', op: '<=', threshold: 50, text: '<= 50 ms' } as const;
  const memTarget = { on: 'ratio', op: '<=', threshold: 2, text: '<= 2x' } as const;
  const results: BenchResult[] = [];
  const pagedMs = paged.ok ? paged.s.medianMs : Number.NaN;
  if (cached.ok) {
    const c = cached.s;
    results.push(
      result({
        name: 'list rv=0 time',
        measured: `${formatMs(c.medianMs)} median`,
        baseline: `etcd paged ${formatMs(pagedMs)}`,
        value: c.medianMs,
        baselineValue: pagedMs,
        ratio: ratio(c.medianMs, pagedMs),
        target: timeTarget,
        figures: { ...c, runs },
        notes: countNote(c, 'the resourceVersion=0 list'),
      }),
      result({
        name: 'list rv=0 memory',
        measured: `peak +${formatBytes(c.maxPeakExtraHeap)}`,
        baseline: `response ${formatBytes(c.bytes)}`,
        value: c.maxPeakExtraHeap,
        baselineValue: c.bytes,
        ratio: ratio(c.maxPeakExtraHeap, c.bytes),
        target: memTarget,
        figures: { peakExtraHeap: c.maxPeakExtraHeap, peakExtraRss: c.maxPeakExtraRss, responseBytes: c.bytes },
        notes: [memNote],
      }),
    );
  } else {
    // The server could not answer: the targets are missed, and the line says how.
    for (const [name, target] of [['list rv=0 time', timeTarget], ['list rv=0 memory', memTarget]] as const) {
      results.push(result({ name, measured: 'request failed', value: Number.NaN, target, status: 'MISSED', figures: { error: cached.error }, notes: [cached.error] }));
    }
  }
  if (paged.ok) {
    const p = paged.s;
    results.push(
      result({
        name: 'list paged time',
        measured: `${formatMs(p.medianMs)} median over ${p.pages} pages`,
        value: p.medianMs,
        figures: { ...p, runs },
        notes: countNote(p, 'the paged list'),
      }),
      result({
        name: 'list paged memory',
        measured: `peak +${formatBytes(p.maxPeakExtraHeap)}`,
        baseline: `response ${formatBytes(p.bytes)}`,
        value: p.maxPeakExtraHeap,
        baselineValue: p.bytes,
        ratio: ratio(p.maxPeakExtraHeap, p.bytes),
        figures: { peakExtraHeap: p.maxPeakExtraHeap, peakExtraRss: p.maxPeakExtraRss, responseBytes: p.bytes, pages: p.pages },
        notes: [memNote],
      }),
    );
  } else {
    results.push(result({ name: 'list paged time', measured: 'request failed', value: Number.NaN, status: 'FAILED', figures: { error: paged.error }, notes: [paged.error] }));
  }
  results.push(await cacheOffVariant(ctx, path, cached.ok ? cached.s.medianMs : Number.NaN));
  return results;
}

/** resourceVersion=0 on a server with --watch-cache=false, when this build has the flag. */
async function cacheOffVariant(ctx: BenchContext, path: string, cachedMs: number): Promise<BenchResult> {
  if (!ctx.watchCacheFlag) {
    return result({
      name: 'list rv=0 cache off',
      measured: 'not run',
      value: Number.NaN,
      status: 'skipped',
      figures: {},
      notes: ['this build has no --watch-cache flag (ServerOptions has no watchCache), so every figure above is already the uncached server'],
    });
  }
  const off = await withServer(await ctx.apiServer({ watchCache: false }), async (server) => {
    const client = newClient(server.port, server.ca, 1);
    ctx.log('list: resourceVersion=0 with --watch-cache=false');
    const r = await attempt(server, client, path, undefined, 'list-rv0-cache-off');
    client.close();
    return r;
  });
  if (!off.ok) return result({ name: 'list rv=0 cache off', measured: 'request failed', value: Number.NaN, status: 'FAILED', figures: { error: off.error }, notes: [off.error] });
  return result({
    name: 'list rv=0 cache off',
    measured: `${formatMs(off.s.medianMs)} median, peak +${formatBytes(off.s.maxPeakExtraHeap)}`,
    baseline: `cache on ${formatMs(cachedMs)}`,
    value: off.s.medianMs,
    baselineValue: cachedMs,
    ratio: ratio(off.s.medianMs, cachedMs),
    figures: off.s,
  });
}
