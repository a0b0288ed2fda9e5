/**
 * watch fan-out: 100 and 1,000 watchers on the ConfigMaps of one namespace while a paced writer
 * creates 1,000 objects a second in etcd (create transactions of stored ConfigMaps under the
 * server's /registry prefix, so that the server does the fan-out and nothing else). The writer
 * and the watchers share this process and its clock: each watcher records when every event
 * arrives. Reports events delivered per second, how many of the expected events arrived before
 * the drain deadline, and the p50/p99 lag from write acknowledgement to receipt. Target for 100
 * watchers: every event delivered, p99 lag < 100 ms.
 */
import { randomUUID } from 'node:crypto';
import { Etcd3 } from 'etcd3';
import { callOk, ensureNamespace, newClient, ServerFailure, type Client } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath, configMap } from '../objects.js';
import { result, type BenchResult } from '../results.js';
import { formatMs, formatRate, percentile, ratio } from '../stats.js';
import { LineSplitter, stringField } from '../watch-stream.js';

const writesPerSecond = 1000;
const writeSeconds = 5;
const writerInFlight = 64;
/** After the last acknowledgement, how long to wait for stragglers (ends early on no progress). */
const drainMs = { 100: 15_000, 1000: 25_000 } as Record<number, number>;
const stallMs = 5_000;

interface FanoutFigures {
  readonly watchers: number;
  readonly connectMs: number;
  readonly writesOk: number;
  readonly writesFailed: number;
  readonly writeRate: number;
  readonly expected: number;
  readonly delivered: number;
  readonly eventsPerSecond: number;
  readonly lagAckP50Ms: number;
  readonly lagAckP99Ms: number;
  readonly lagSendP50Ms: number;
  readonly lagSendP99Ms: number;
  readonly receivedBeforeAck: number;
  readonly watchersEnded: number;
  readonly drainedMs: number;
}

/**
 * An open-loop writer: every tick issues the creates now due at writesPerSecond, at most
 * writerInFlight at once, recording each one's send and acknowledgement time by sequence number.
 */
async function pacedWrites(
  write: (seq: number, sentAt: number) => Promise<boolean>,
  total: number,
  sentAt: Float64Array,
  ackAt: Float64Array,
): Promise<{ writesOk: number; writesFailed: number; writeRate: number; writeStart: number; writeEnd: number }> {
  let issued = 0;
  let inFlight = 0;
  let writesOk = 0;
  let writesFailed = 0;
  const writeStart = performance.now();
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const due = Math.min(total, Math.floor(((performance.now() - writeStart) / 1000) * writesPerSecond));
      while (issued < due && inFlight < writerInFlight) {
        const seq = issued++;
        inFlight++;
        const t = performance.now();
        sentAt[seq] = t;
        write(seq, t)
          .then(
            (ok) => {
              if (ok) {
                ackAt[seq] = performance.now();
                writesOk++;
              } else writesFailed++;
            },
            () => writesFailed++,
          )
          .finally(() => {
            inFlight--;
            if (issued === total && inFlight === 0) {
              clearInterval(timer);
              resolve();
            }
          });
      }
    };
    const timer = setInterval(tick, 2);
  });
  const writeEnd = performance.now();
  return { writesOk, writesFailed, writeRate: writesOk / ((writeEnd - writeStart) / 1000), writeStart, writeEnd };
}

async function fanout(ctx: BenchContext, watchers: number): Promise<FanoutFigures> {
  const namespace = `bench-watch-${watchers}`;
  return await withServer(await ctx.apiServer(), async (server) => {
    const writer = newClient(server.port, server.ca, writerInFlight);
    await ensureNamespace(writer, namespace);
    const path = collectionPath(namespace, 'configmaps');
    const list = await callOk<{ metadata: { resourceVersion: string } }>(writer, 'GET', `${path}?limit=1`);
    const total = writesPerSecond * writeSeconds;
    const runId = Date.now().toString(36);
    // lagSend[w][seq]: receipt time minus the embedded send time; NaN until received.
    const lagSend = Array.from({ length: watchers }, () => new Float64Array(total).fill(Number.NaN));
    const sentAt = new Float64Array(total).fill(Number.NaN);
    const ackAt = new Float64Array(total).fill(Number.NaN);
    let delivered = 0;
    let lastReceipt = 0;
    let watchersEnded = 0;
    const prefix = `w-${runId}-`;

    const watchClient: Client = newClient(server.port, server.ca, Number.POSITIVE_INFINITY);
    const connectStart = performance.now();
    let connected = 0;
    const allConnected = new Promise<void>((resolve, reject) => {
      for (let w = 0; w < watchers; w++) {
        const lags = lagSend[w] as Float64Array;
        const splitter = new LineSplitter((line) => {
          const now = performance.now();
          const name = stringField(line, 'name');
          if (!name?.startsWith(prefix)) return;
          const seq = Number(name.slice(prefix.length));
          // The writer runs in this process: its send times are on the same clock.
          const sent = sentAt[seq] as number;
          if (seq >= 0 && seq < total && Number.isNaN(lags[seq] as number)) {
            lags[seq] = now - sent;
            delivered++;
            lastReceipt = now;
          }
        });
        watchClient
          .stream('GET', `${path}?watch=1&resourceVersion=${list.metadata.resourceVersion}&timeoutSeconds=600`, (c) => splitter.push(c), (res) => {
            if (res.statusCode !== 200) reject(new ServerFailure(`watch ${path}: HTTP ${res.statusCode}`));
            if (++connected === watchers) resolve();
          })
          .then(() => watchersEnded++, () => watchersEnded++);
      }
    });
    let connectTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      allConnected,
      new Promise<never>((_, reject) => {
        connectTimer = setTimeout(() => reject(new ServerFailure(`only ${connected} of ${watchers} watches opened in 60s`)), 60_000);
      }),
    ]).finally(() => clearTimeout(connectTimer));
    const connectMs = performance.now() - connectStart;
    ctx.log(`watch ${watchers}: ${watchers} watches open in ${formatMs(connectMs)}; writing ${writesPerSecond}/s for ${writeSeconds}s`);

    // The writes go to etcd directly, as create transactions of stored ConfigMaps under the
    // server's prefix: the server's work is then the fan-out alone (its create path is measured
    // by the creates benchmark, and on 2 cores could not also carry 1,000 creates/s here).
    const etcd = new Etcd3({ hosts: [ctx.etcdEndpoint] });
    const value = (seq: number, t: number): string =>
      JSON.stringify({
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { name: `${prefix}${seq}`, namespace, uid: randomUUID(), creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
        data: { ...(configMap({ name: 'x' }, 1024).data as Record<string, string>), sentAt: t.toFixed(3) },
      });
    const write = async (seq: number, t: number): Promise<boolean> => {
      const key = `/registry/configmaps/${namespace}/${prefix}${seq}`;
      const res = await etcd.if(key, 'Mod', '==', 0).then(etcd.put(key).value(value(seq, t))).commit();
      return res.succeeded;
    };
    const w = await server.profile(`watch-${watchers}`, async () => {
      const writes = await pacedWrites(write, total, sentAt, ackAt).finally(() => etcd.close());
      const expected = writes.writesOk * watchers;
      ctx.log(`watch ${watchers}: ${writes.writesOk} writes at ${formatRate(writes.writeRate)}/s; waiting for ${expected - delivered} undelivered events`);
      const drainStart = performance.now();
      let lastProgress = delivered;
      let lastProgressAt = drainStart;
      while (delivered < expected && performance.now() - drainStart < (drainMs[watchers] ?? 20_000)) {
        await new Promise((r) => setTimeout(r, 100));
        if (delivered !== lastProgress) {
          lastProgress = delivered;
          lastProgressAt = performance.now();
        } else if (performance.now() - lastProgressAt > stallMs) break;
      }
      return { ...writes, expected, drainedMs: performance.now() - drainStart };
    });
    const { writesOk, writesFailed, writeRate, writeStart, writeEnd, expected, drainedMs } = w;
    watchClient.close();
    writer.close();

    // Lag from acknowledgement: lagSend minus (ack - send). An event that arrived before its
    // write was acknowledged counts as 0.
    const ackLags = new Float64Array(delivered);
    const sendLags = new Float64Array(delivered);
    let n = 0;
    let early = 0;
    for (const lags of lagSend) {
      for (let seq = 0; seq < total; seq++) {
        const l = lags[seq] as number;
        if (Number.isNaN(l) || Number.isNaN(ackAt[seq] as number)) continue;
        const fromAck = l - ((ackAt[seq] as number) - (sentAt[seq] as number));
        if (fromAck < 0) early++;
        ackLags[n] = Math.max(0, fromAck);
        sendLags[n] = l;
        n++;
      }
    }
    const a = ackLags.subarray(0, n);
    const s = sendLags.subarray(0, n);
    return {
      watchers,
      connectMs,
      writesOk,
      writesFailed,
      writeRate,
      expected,
      delivered,
      eventsPerSecond: delivered / (((lastReceipt || writeEnd) - writeStart) / 1000),
      lagAckP50Ms: percentile(a, 50),
      lagAckP99Ms: percentile(a, 99),
      lagSendP50Ms: percentile(s, 50),
      lagSendP99Ms: percentile(s, 99),
      receivedBeforeAck: early,
      watchersEnded,
      drainedMs,
    };
  });
}

/** Runs the watch fan-out benchmark for 100 and 1,000 watchers. */
export async function watchFanoutBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const watchers of [100, 1000]) {
    const judged = watchers === 100;
    let f: FanoutFigures;
    try {
      f = await fanout(ctx, watchers);
    } catch (err) {
      if (!(err instanceof ServerFailure)) throw err;
      const target = { on: 'ratio', op: '>=', threshold: 1, text: 'every event (1.00x)' } as const;
      out.push(result({ name: `watch ${watchers} delivered`, measured: 'failed', value: Number.NaN, ...(judged ? { target, status: 'MISSED' as const } : { status: 'FAILED' as const }), figures: { error: err.message }, notes: [err.message] }));
      continue;
    }
    const notes: string[] = [];
    if (f.writesFailed > 0) notes.push(`${f.writesFailed} writes failed`);
    if (f.writeRate < writesPerSecond * 0.95) notes.push(`the writer reached only ${formatRate(f.writeRate)} writes/s of ${writesPerSecond} (at most ${writerInFlight} in flight)`);
    if (f.watchersEnded > 0) notes.push(`${f.watchersEnded} watches ended before the drain deadline`);
    if (f.delivered < f.expected) notes.push(`${f.expected - f.delivered} events not delivered within ${formatMs(f.drainedMs)} after the last write`);
    out.push(
      result({
        name: `watch ${watchers} delivered`,
        measured: `${formatRate(f.eventsPerSecond)} events/s, ${f.delivered}/${f.expected}`,
        baseline: `${formatRate(f.writeRate)} writes/s x ${watchers}`,
        value: f.delivered,
        baselineValue: f.expected,
        ratio: ratio(f.delivered, f.expected),
        ...(judged ? { target: { on: 'ratio', op: '>=', threshold: 1, text: 'every event (1.00x)' } as const } : {}),
        figures: { ...f },
        notes,
      }),
      result({
        name: `watch ${watchers} lag`,
        measured: `p50 ${formatMs(f.lagAckP50Ms)}, p99 ${formatMs(f.lagAckP99Ms)}`,
        value: f.lagAckP99Ms,
        ...(judged ? { target: { on: 'value', op: '<', threshold: 100, text: 'p99 < 100 ms' } as const } : {}),
        figures: { lagAckP50Ms: f.lagAckP50Ms, lagAckP99Ms: f.lagAckP99Ms, lagSendP50Ms: f.lagSendP50Ms, lagSendP99Ms: f.lagSendP99Ms, receivedBeforeAck: f.receivedBeforeAck },
        notes: ['lag from the write\'s acknowledgement to receipt, over delivered events (one received before its acknowledgement counts as 0)'],
      }),
    );
  }
  return out;
}
