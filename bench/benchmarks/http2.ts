/**
 * http2: cached GET/s and creates/s over HTTP/2 (node:http2 sessions, 64 streams in flight on one
 * connection, as client-go multiplexes its requests) against the same loads over HTTP/1.1
 * (autocannon, 64 keep-alive connections), on one server in the same run: A/B rounds as in
 * `security` (bench/ab-rounds.ts), the order flipped every round. The two load generators differ
 * (node:http2's client costs more CPU per request than autocannon, on the same 2 cores), so the
 * server's own CPU per answered request, from /proc, is the fairer comparison and is noted.
 * Target: HTTP/2 at most 10% slower (>= 0.9x).
 */
import { abResult, runAbRounds, type AbMeasurements, type AbWorkload } from '../ab-rounds.js';
import { throughput } from '../cannon.js';
import { callOk, ensureNamespace, newClient } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { h2Throughput } from '../h2-cannon.js';
import { collectionPath, configMap } from '../objects.js';
import type { BenchResult } from '../results.js';

const inFlight = 64;
const seconds = 3;
const rounds = 3;
const namespace = 'bench-http2';

/** Runs the HTTP/2 against HTTP/1.1 benchmark. */
export async function http2Benchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const body = JSON.stringify(configMap({ generateName: 'h2-' }, 1024));
  const target = `${collectionPath(namespace, 'configmaps')}/target?resourceVersion=0`;
  const workloads: AbWorkload[] = [
    {
      name: 'cached GET',
      load: (s, side) =>
        side === 'a'
          ? h2Throughput({ port: s.port, ca: s.ca, path: target, connections: inFlight, warmupSeconds: 0, seconds })
          : throughput({ port: s.port, ca: s.ca, path: target, connections: inFlight, warmupSeconds: 0, seconds }),
    },
    {
      name: 'creates',
      load: (s, side) => {
        const load = { port: s.port, ca: s.ca, path: collectionPath(namespace, 'configmaps'), method: 'POST' as const, body, connections: inFlight, warmupSeconds: 0, seconds };
        return side === 'a' ? h2Throughput(load) : throughput(load);
      },
    },
  ];
  let measured: AbMeasurements | undefined;
  await withServer(await ctx.apiServer(), async (server) => {
    const client = newClient(server.port, server.ca);
    await ensureNamespace(client, namespace);
    if ((await client.call('GET', target)).status === 404) await callOk(client, 'POST', collectionPath(namespace, 'configmaps'), configMap({ name: 'target' }, 1024));
    client.close();
    ctx.log(`http2: ${rounds} rounds of ${seconds}s cached GETs and creates over HTTP/2 (${inFlight} streams, one connection) then HTTP/1.1 (${inFlight} connections), one server`);
    measured = await server.profile('http2', () => runAbRounds(server, server, workloads, rounds));
  });
  const m = measured as AbMeasurements;
  return workloads.map((w, i) =>
    abResult(m, i, { name: `${w.name} HTTP/2`, aLabel: 'HTTP/2', bLabel: 'HTTP/1.1', threshold: 0.9, extraFigures: { inFlight, seconds, sessions: 1 } }),
  );
}
