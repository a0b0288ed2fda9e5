/**
 * cached GET: one ConfigMap read with ?resourceVersion=0 over 64 keep-alive connections, against
 * a bare node:https server answering the same bytes. Whatever serves resourceVersion=0 (the watch
 * cache once it exists, etcd before) is what is measured. Both servers run side by side and are
 * loaded in alternating rounds; the ratio is the median of the rounds'. Target >= 0.3x the bare server (issue 17).
 */
import { throughput, type Throughput } from '../cannon.js';
import { callOk, ensureNamespace, newClient, serverFailure } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath, configMap } from '../objects.js';
import { result, type BenchResult } from '../results.js';
import { formatRate, median, ratio } from '../stats.js';

const connections = 64;
const warmupSeconds = 1;
const seconds = 3;
const rounds = 3;

/** Runs the cached GET benchmark. */
export async function cachedGetBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const namespace = 'bench-get';
  const path = `${collectionPath(namespace, 'configmaps')}/target?resourceVersion=0`;
  const api: Throughput[] = [];
  const bare: Throughput[] = [];
  let responseBytes = 0;
  await withServer(await ctx.apiServer(), async (server) => {
    const client = newClient(server.port, server.ca);
    await ensureNamespace(client, namespace);
    const existing = await client.call('GET', path);
    if (existing.status === 404) await callOk(client, 'POST', collectionPath(namespace, 'configmaps'), configMap({ name: 'target' }, 1024));
    const reply = await client.call('GET', path);
    client.close();
    if (reply.status !== 200) throw serverFailure('GET', path, reply.status, reply.body);
    responseBytes = reply.body.length;
    await withServer(await ctx.bareServer(), async (baseline) => {
      await baseline.setBody(reply.body.toString('utf8'), 'application/json');
      ctx.log(`cached GET: ${rounds} rounds of ${seconds}s on the API server then the bare server, ${responseBytes}-byte ConfigMap, ${connections} connections`);
      // One profile over all rounds: the bare server's rounds show in it as idle time.
      await server.profile('cached-get', async () => {
        for (let r = 0; r < rounds; r++) {
          const warm = r === 0 ? warmupSeconds : 0;
          api.push(await throughput({ port: server.port, ca: server.ca, path, connections, warmupSeconds: warm, seconds }));
          bare.push(await throughput({ port: baseline.port, ca: baseline.ca, path, connections, warmupSeconds: warm, seconds }));
        }
      });
    });
  });
  const ratios = api.map((a, i) => ratio(a.perSecond, (bare[i] as Throughput).perSecond));
  const apiRate = median(api.map((a) => a.perSecond));
  const bareRate = median(bare.map((b) => b.perSecond));
  const notes: string[] = [`per round: ${api.map((a, i) => `${formatRate(a.perSecond)}/${formatRate((bare[i] as Throughput).perSecond)}`).join(', ')} (API/bare)`];
  const failed = api.reduce((n, a) => n + a.failed, 0);
  if (failed > 0) notes.push(`${failed} GETs did not answer 2xx: ${JSON.stringify(api.map((a) => a.statusCodes))}`);
  return [
    result({
      name: 'cached GET',
      measured: `${formatRate(apiRate)}/s`,
      baseline: `bare https ${formatRate(bareRate)}/s`,
      value: apiRate,
      baselineValue: bareRate,
      ratio: median(ratios),
      target: { on: 'ratio', op: '>=', threshold: 0.3, text: '>= 0.3x' },
      figures: { api, bare, ratios, connections, seconds, rounds, responseBytes },
      notes,
    }),
  ];
}
