/**
 * admission: what the admission chain costs on the write path. Pod creates/s (64 in flight)
 * against a server running kube's default plugins (NamespaceLifecycle, LimitRanger,
 * ServiceAccount, PodSecurity, Priority, DefaultTolerationSeconds, ResourceQuota, the webhook and
 * policy plugins, ...) plus one ValidatingAdmissionPolicy with a CEL rule bound to pods, against
 * the same load on a server with every plugin disabled (an empty chain), in alternating A/B
 * rounds (bench/ab-rounds.ts). Pods are what most default plugins act on (ServiceAccount adds the
 * token volume and mounts, DefaultTolerationSeconds two tolerations), so the stored objects are
 * larger on side A: the ratio is the whole price of the default chain. Target: >= 0.7x.
 */
import { abResult, runAbRounds, type AbMeasurements, type AbWorkload } from '../ab-rounds.js';
import { throughput } from '../cannon.js';
import { ensureNamespace, newClient } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath } from '../objects.js';
import { emptyAdmissionFlag, ensureObject as ensure, policyBinding, policyBindingCollection, policyCollection, validatingPolicy } from '../production-chain.js';
import type { BenchResult } from '../results.js';

const connections = 64;
const seconds = 3;
const rounds = 5;
const namespace = 'bench-admission';

const policy = validatingPolicy('bench-max-containers', 'pods', 'object.spec.containers.size() <= 10', 'at most 10 containers');
const binding = policyBinding('bench-max-containers');

/** Runs the admission benchmark. */
export async function admissionBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'p-', labels: { app: 'bench' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } });
  const workloads: AbWorkload[] = [
    {
      name: 'pod creates',
      load: (s) => throughput({ port: s.port, ca: s.ca, path: collectionPath(namespace, 'pods'), method: 'POST', body, connections, warmupSeconds: 0, seconds }),
    },
  ];
  let measured: AbMeasurements | undefined;
  await withServer(await ctx.apiServer(), async (chained) => {
    await withServer(await ctx.apiServer(undefined, [emptyAdmissionFlag()]), async (empty) => {
      const client = newClient(chained.port, chained.ca, 1);
      try {
        await ensureNamespace(client, namespace);
        // The ServiceAccount plugin needs the namespace's default account (both servers share one etcd).
        await ensure(client, `/api/v1/namespaces/${namespace}/serviceaccounts`, { metadata: { name: 'default' } });
        await ensure(client, policyCollection, policy);
        await ensure(client, policyBindingCollection, binding);
      } finally {
        client.close();
      }
      ctx.log(`admission: ${rounds} rounds of ${seconds}s pod creates, default plugins + one ValidatingAdmissionPolicy then an empty chain, ${connections} connections`);
      measured = await chained.profile('admission', () => runAbRounds(chained, empty, workloads, rounds));
    });
  });
  const m = measured as AbMeasurements;
  return [
    abResult(m, 0, {
      name: 'pod creates default admission + 1 VAP',
      aLabel: 'default plugins + VAP',
      bLabel: 'empty chain',
      threshold: 0.7,
      extraFigures: { connections, seconds },
    }),
  ];
}
