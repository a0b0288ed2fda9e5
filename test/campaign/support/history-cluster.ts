/**
 * The linearizability campaign's cluster: one real etcd and two API servers on it (watch cache on,
 * Protobuf storage, WatchList on, one CA), each restartable on its port, plus etcd compaction and a direct read of
 * the ConfigMaps etcd holds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { freePort, startLocalEtcd, type LocalEtcd } from '../../../hack/local-etcd.js';
import { createLogger } from '../../../internal/observability/logging.js';
import type { ServerOptions } from '../../../internal/server/options/flags.js';
import { startServer, type RunningServer } from '../../../internal/server/server.js';
import { decodeStored } from '../../../internal/storage/codec.js';
import { groupOptionsFromFlags, testServerOptions } from '../../support/server.js';
import { startEtcdWitness, type EtcdWitness } from './history-etcd-watch.js';
import type { ObjectState } from './history-types.js';

/** One API server of the cluster; `up` is false while it restarts. */
export interface ApiServer {
  readonly name: string;
  readonly port: number;
  readonly ca: string;
  up: boolean;
}

/** The running cluster. */
export interface Cluster {
  readonly servers: readonly ApiServer[];
  /** Stops a server gracefully and starts it again on the same port and etcd; resolves once it is ready. */
  restart(name: string): Promise<void>;
  /** Compacts etcd (physically) to its current revision; resolves to that revision. */
  compact(): Promise<bigint>;
  /** The ConfigMaps of namespace ns whose names pass keep, read from etcd directly, with their mod revisions. */
  etcdState(ns: string, keep: (name: string) => boolean): Promise<{ rev: bigint; items: Record<string, ObjectState> }>;
  /** Starts a watch on etcd itself (history-etcd-watch.ts) of the ConfigMaps of ns whose names pass keep. */
  witness(ns: string, keep: (name: string) => boolean): Promise<EtcdWitness>;
  stop(): Promise<void>;
}

/** Starts etcd and two API servers (named a and b) on it. */
export async function startCluster(): Promise<Cluster> {
  const log = createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1');
  const etcd: LocalEtcd = await startLocalEtcd();
  const dir = await mkdtemp(join(tmpdir(), 'capstan-linear-'));
  const client = new Etcd3({ hosts: etcd.endpoint });
  const running = new Map<string, { api: ApiServer; options: ServerOptions; server: RunningServer }>();
  try {
    // One after the other: the second server reuses the CA the first wrote to the shared cert dir.
    for (const name of ['a', 'b']) {
      // Watches still open when a server stops are cut after 1 s (--shutdown-watch-termination-grace-period),
      // so a restart does not wait the test fixture's 10 s for the campaign's watchers.
      // WatchList on, so a watcher can take its state from initial events.
      const { shutdown: _shutdown, ...fromFlags } = groupOptionsFromFlags([`--cert-dir=${join(dir, 'certs')}`, '--feature-gates=WatchList=true']);
      const options = testServerOptions(etcd.endpoint, await freePort(), join(dir, 'certs'), {
        ...fromFlags,
        shutdown: { delayDurationMs: 0, sendRetryAfter: false, watchTerminationGracePeriodMs: 1000 },
      });
      const server = await startServer(options, log);
      await server.ready;
      running.set(name, { api: { name, port: options.securePort, ca: server.certificate.ca ?? '', up: true }, options, server });
    }
  } catch (err) {
    for (const r of running.values()) await r.server.stop();
    client.close();
    await etcd.stop();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    servers: [...running.values()].map((r) => r.api),
    async restart(name) {
      const r = running.get(name);
      if (!r) throw new Error(`no server ${name}`);
      r.api.up = false;
      await r.server.stop();
      r.server = await startServer(r.options, log);
      await r.server.ready;
      r.api.up = true;
    },
    async compact() {
      const rev = BigInt((await client.kv.range({ key: Buffer.from('compact-probe') })).header.revision);
      await client.kv.compact({ revision: String(rev), physical: true });
      return rev;
    },
    async etcdState(ns, keep) {
      const prefix = `/registry/configmaps/${ns}/`;
      const res = await client.kv.range({ key: Buffer.from(prefix), range_end: Buffer.from(`${prefix.slice(0, -1)}0`) });
      const items: Record<string, ObjectState> = {};
      for (const kv of res.kvs) {
        const key = kv.key.toString('utf8');
        const name = key.slice(prefix.length);
        if (!keep(name)) continue;
        const obj = decodeStored(key, kv.value) as { metadata: { uid?: string }; data?: Record<string, string> };
        items[name] = { uid: obj.metadata.uid ?? '', rv: String(kv.mod_revision), data: obj.data ?? {} };
      }
      return { rev: BigInt(res.header.revision), items };
    },
    witness: (ns, keep) => startEtcdWitness(client, ns, keep),
    async stop() {
      for (const r of running.values()) await r.server.stop().catch(() => undefined);
      client.close();
      await etcd.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
