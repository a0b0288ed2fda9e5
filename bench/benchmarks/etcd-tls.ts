/**
 * etcd-tls: what TLS to etcd costs the write path. Creates/s (POST of 1 KiB ConfigMaps, 64 in
 * flight) against a server on a one-member etcd speaking TLS with client certificates
 * (--etcd-cafile, --etcd-certfile, --etcd-keyfile; hack/local-etcd-cluster.ts), against the same
 * load on a server on the run's plain etcd, in alternating A/B rounds (bench/ab-rounds.ts). Both
 * etcds run on this machine with the same settings apart from TLS. Target: at most 10% slower.
 */
import { startLocalEtcdCluster } from '../../hack/local-etcd-cluster.js';
import { abResult, runAbRounds, type AbMeasurements, type AbWorkload } from '../ab-rounds.js';
import { throughput } from '../cannon.js';
import { ensureNamespace, newClient } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath, configMap } from '../objects.js';
import type { BenchResult } from '../results.js';

const connections = 64;
const seconds = 3;
const rounds = 5;
const namespace = 'bench-etcd-tls';

/** Runs the etcd TLS benchmark. */
export async function etcdTlsBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const cluster = await startLocalEtcdCluster({ members: 1 });
  try {
    const f = cluster.files;
    const body = JSON.stringify(configMap({ generateName: 't-' }, 1024));
    const workloads: AbWorkload[] = [
      {
        name: 'creates',
        load: (s) => throughput({ port: s.port, ca: s.ca, path: collectionPath(namespace, 'configmaps'), method: 'POST', body, connections, warmupSeconds: 0, seconds }),
      },
    ];
    let measured: AbMeasurements | undefined;
    const tlsFlags = [`--etcd-cafile=${f.caFile}`, `--etcd-certfile=${f.certFile}`, `--etcd-keyfile=${f.keyFile}`];
    await withServer(await ctx.apiServer({ etcdServers: [...cluster.endpoints] }, tlsFlags), async (tls) => {
      await withServer(await ctx.apiServer(), async (plain) => {
        // Two etcds: each server makes the namespace on its own.
        for (const s of [tls, plain]) {
          const client = newClient(s.port, s.ca, 1);
          try {
            await ensureNamespace(client, namespace);
          } finally {
            client.close();
          }
        }
        ctx.log(`etcd-tls: ${rounds} rounds of ${seconds}s creates, etcd over TLS with client certificates then plain etcd, ${connections} connections`);
        measured = await tls.profile('etcd-tls', () => runAbRounds(tls, plain, workloads, rounds));
      });
    });
    return [
      abResult(measured as AbMeasurements, 0, {
        name: 'creates etcd TLS',
        aLabel: 'TLS etcd',
        bLabel: 'plain etcd',
        threshold: 0.9,
        extraFigures: { connections, seconds },
      }),
    ];
  } finally {
    await cluster.stop();
  }
}
