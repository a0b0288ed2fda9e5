/**
 * The baselines of the write benchmarks: raw etcd transactions from the etcd3 client, a fixed
 * number in flight, for a number of seconds, shaped as the API server's writes are. Creates are
 * guarded puts of fresh keys (`mod_revision == 0`, then put); updates are compare-and-swap
 * transactions on keys each worker owns (`mod_revision ==` the revision of its last write, then
 * put); deletes compare the revision of a key the creates wrote, then delete it. The runner's own
 * CPU per transaction (process.cpuUsage over the run: the etcd3 client, grpc-js and the loop) is
 * measured too, as what one transaction costs a Node.js client.
 */
import { Etcd3 } from 'etcd3';

/** What a raw run measured. */
export interface RawRun {
  readonly perSecond: number;
  readonly done: number;
  /** Errors and lost compares. */
  readonly failed: number;
  /** The runner's CPU (user + system, all threads) per successful transaction, in µs. */
  readonly clientCpuMicrosPerTxn: number;
}

/** Raw etcd loads on one key prefix. */
export interface RawEtcd {
  /** Guarded creates of fresh keys; remembers each key and its revision for deletes. */
  creates(seconds: number): Promise<RawRun>;
  /** Compare-and-swap puts, each worker on a key of its own. */
  updates(seconds: number): Promise<RawRun>;
  /** Guarded deletes of keys the creates wrote (ends early when a worker has none left). */
  deletes(seconds: number): Promise<RawRun>;
  /** Deletes every key under the prefix and closes the client. */
  close(): Promise<void>;
}

interface Written {
  readonly key: string;
  readonly revision: string;
}

/** A raw etcd load generator with inFlight workers writing values of valueBytes. */
export function rawEtcd(endpoint: string, valueBytes: number, inFlight = 64): RawEtcd {
  const client = new Etcd3({ hosts: [endpoint] });
  const value = Buffer.alloc(valueBytes, 'v');
  const prefix = `/bench-raw/${Date.now()}/`;
  let seq = 0;
  const created: Written[][] = Array.from({ length: inFlight }, () => []);
  const owned: Array<Written | undefined> = Array.from({ length: inFlight }, () => undefined);

  /** Runs step(worker) in inFlight workers until time is up or a step answers undefined (nothing left). */
  const loop = async (seconds: number, step: (worker: number) => Promise<boolean> | undefined): Promise<RawRun> => {
    let done = 0;
    let failed = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const stopAt = started + seconds * 1000;
    const worker = async (w: number): Promise<void> => {
      while (performance.now() < stopAt) {
        const pending = step(w);
        if (!pending) return;
        try {
          if (await pending) done++;
          else failed++;
        } catch {
          failed++;
        }
      }
    };
    await Promise.all(Array.from({ length: inFlight }, (_, w) => worker(w)));
    const used = process.cpuUsage(cpu);
    return {
      perSecond: done / ((performance.now() - started) / 1000),
      done,
      failed,
      clientCpuMicrosPerTxn: done > 0 ? (used.user + used.system) / done : Number.NaN,
    };
  };

  return {
    creates: (seconds) =>
      loop(seconds, async (w) => {
        const key = `${prefix}c/${seq++}`;
        const res = await client.if(key, 'Mod', '==', 0).then(client.put(key).value(value)).commit();
        if (res.succeeded) (created[w] as Written[]).push({ key, revision: res.header.revision });
        return res.succeeded;
      }),
    updates: (seconds) =>
      loop(seconds, async (w) => {
        const mine = owned[w] ?? { key: `${prefix}u/${w}`, revision: '0' };
        const res = await client.if(mine.key, 'Mod', '==', mine.revision).then(client.put(mine.key).value(value)).commit();
        owned[w] = { key: mine.key, revision: res.succeeded ? res.header.revision : mine.revision };
        return res.succeeded;
      }),
    deletes: (seconds) =>
      loop(seconds, (w) => {
        const next = (created[w] as Written[]).pop();
        if (!next) return undefined;
        return client
          .if(next.key, 'Mod', '==', next.revision)
          .then(client.delete().key(next.key))
          .commit()
          .then((res) => res.succeeded);
      }),
    async close() {
      await client.delete().prefix(prefix);
      client.close();
    },
  };
}
