/**
 * write-path (issue 17): every write verb through the production chain against its raw etcd
 * transaction. The server: x509 client certificates, --authorization-mode=Node,RBAC with the
 * bootstrap policy plus 1,000 filler RoleBindings, audit at level Metadata to a file, the default
 * admission plugins and one ValidatingAdmissionPolicy whose CEL rule applies to every measured
 * write. The client is a user bound to `edit` in the namespace. Per verb (64 workers over
 * keep-alive HTTPS, 1 KiB ConfigMaps, each worker on objects of its own): requests/s against the
 * raw etcd baseline measured in the same rounds (create: guarded create transactions; update,
 * patches and apply: compare-and-swap transactions; delete: guarded deletes), rounds alternating
 * which side goes first; the server's CPU per request (/proc, all threads) and the runner's CPU per
 * raw transaction. Then the chain's cost: creates/s with the whole chain against the same set-up
 * with none of it (anonymous, AlwaysAllow, no audit, no admission plugins), A/B rounds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { abResult, runAbRounds, type AbWorkload } from '../ab-rounds.js';
import type { Throughput } from '../cannon.js';
import { newClient, serverFailure, type Client } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath, configMap } from '../objects.js';
import {
  auditFlags,
  awaitAllowed,
  bindEdit,
  clientPki,
  emptyAdmissionFlag,
  policyBinding,
  policyBindingCollection,
  policyCollection,
  securedFlags,
  validatingPolicy,
  type ClientCert,
} from '../production-chain.js';
import { rawEtcd, type RawEtcd, type RawRun } from '../raw-etcd.js';
import type { BenchResult } from '../results.js';
import { deleteFillerRoleBindings, writeFillerRoleBindings } from '../role-bindings.js';
import { awaitQuiet, processCpuMs } from '../server-cpu.js';
import type { ServerHandle } from '../server-handle.js';
import { verbLoads, writeVerbs, type WriteVerb } from '../write-verbs.js';
import { writeLoop } from '../write-loop.js';
import { verbResults, type VerbRound } from '../write-path-report.js';

const workers = 64;
const seconds = 2;
const warmupSeconds = 2;
const rounds = 3;
const abRounds = 3;
const fillerBindings = 1000;
const namespace = 'bench-write-path';
const namespaceLabels = { 'bench.capstan.dev/write-path': 'true' };
const policyName = 'bench-configmap-data-size';
const policy = validatingPolicy(policyName, 'configmaps', 'object.data.size() < 100', 'at most 99 data keys');

/** The baseline each verb is measured against. */
const baselineOf: Record<WriteVerb, 'creates' | 'updates' | 'deletes'> = {
  create: 'creates',
  update: 'updates',
  'merge patch': 'updates',
  'strategic patch': 'updates',
  apply: 'updates',
  delete: 'deletes',
};

/** Sets the production server up: namespace, bindings, policy; waits until RBAC and the policy are in force. */
async function prepare(server: ServerHandle, admin: Client, user: ClientCert): Promise<void> {
  const ns = await admin.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: namespaceLabels } });
  if (ns.status !== 201 && ns.status !== 409) throw serverFailure('POST', 'namespaces', ns.status, ns.body);
  await bindEdit(admin, namespace);
  for (const [collection, obj] of [
    [policyCollection, policy],
    [policyBindingCollection, policyBinding(policyName, namespaceLabels)],
  ] as const) {
    const r = await admin.call('POST', collection, obj);
    if (r.status !== 201 && r.status !== 409) throw serverFailure('POST', collection, r.status, r.body);
  }
  const collection = collectionPath(namespace, 'configmaps');
  await awaitAllowed(server, user, `${collection}?limit=1`);
  // The policy is in force once a ConfigMap it forbids (100 data keys) is refused.
  const probe = newClient(server.port, server.ca, 1, user);
  try {
    const tooMany = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 'v']));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const r = await probe.call('POST', collection, configMap({ name: 'policy-probe' }, 0, tooMany));
      if (r.status >= 400 && r.body.includes(policyName)) break;
      if (r.status === 201) await probe.call('DELETE', `${collection}/policy-probe`);
      if (Date.now() > deadline) throw serverFailure('POST', `${collection} (policy probe)`, r.status, r.body);
      await new Promise((res) => setTimeout(res, 200));
    }
  } finally {
    probe.close();
  }
}

/** One API run of verb, with the server's CPU over it. */
async function apiRun(server: ServerHandle, user: Client, loads: ReturnType<typeof verbLoads>, verb: WriteVerb, runSeconds: number): Promise<VerbRound['api']> {
  const load = loads.load(verb);
  const before = processCpuMs(server.pid);
  const runner = process.cpuUsage();
  const t = await writeLoop({ port: server.port, agent: user.agent, workers, seconds: runSeconds, next: load.next, onAnswer: load.onAnswer });
  const used = process.cpuUsage(runner);
  const cpuMs = processCpuMs(server.pid) - before;
  return { ...t, serverCpuMicrosPerRequest: t.ok > 0 ? (cpuMs * 1000) / t.ok : Number.NaN, runnerCpuMicrosPerRequest: t.ok > 0 ? (used.user + used.system) / t.ok : Number.NaN };
}

/** The rounds: per verb an API run and its raw baseline, the order flipped every round; the last round profiled. */
async function measureVerbs(ctx: BenchContext, server: ServerHandle, user: Client, loads: ReturnType<typeof verbLoads>, etcd: RawEtcd): Promise<Map<WriteVerb, VerbRound[]>> {
  const out = new Map<WriteVerb, VerbRound[]>(writeVerbs.map((v) => [v, []]));
  // Warm-up: creates first (they make what the deletes remove), then every other verb, then the raw loads.
  // Long enough for V8 to optimise each verb's path: a fresh server's first seconds also pay the compiler's threads.
  for (const verb of writeVerbs) await apiRun(server, user, loads, verb, warmupSeconds);
  await etcd.creates(1);
  await etcd.updates(1);
  await etcd.deletes(1);
  for (let r = 0; r < rounds; r++) {
    const raw: Partial<Record<'creates' | 'updates' | 'deletes', RawRun>> = {};
    const rawRun = async (kind: 'creates' | 'updates' | 'deletes'): Promise<void> => {
      raw[kind] ??= await etcd[kind](seconds);
    };
    const last = r === rounds - 1;
    for (const verb of writeVerbs) {
      if (r % 2 === 1) await rawRun(baselineOf[verb]);
      const run = (): Promise<VerbRound['api']> => apiRun(server, user, loads, verb, seconds);
      const api = last ? await server.profile(`write-path-${verb.replace(/ /g, '-')}`, run) : await run();
      await rawRun(baselineOf[verb]);
      (out.get(verb) as VerbRound[]).push({ api, raw: raw[baselineOf[verb]] as RawRun });
    }
    ctx.log(`write-path: round ${r + 1}/${rounds}: ${writeVerbs.map((v) => `${v} ${Math.round((out.get(v) as VerbRound[])[r]?.api.perSecond ?? 0)}/s`).join(', ')}`);
  }
  return out;
}

/** Runs the write-path benchmark. */
export async function writePathBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-bench-write-path-'));
  const etcd = rawEtcd(ctx.etcdEndpoint, 1024, workers);
  try {
    const pki = await clientPki(dir);
    const audit = await auditFlags(dir);
    const collection = collectionPath(namespace, 'configmaps');
    const out: BenchResult[] = [];
    const fillerNamespaces = await writeFillerRoleBindings(ctx.etcdEndpoint, fillerBindings, namespace);
    ctx.log(`write-path: ${fillerBindings} filler RoleBindings over ${fillerNamespaces.length} namespaces written to etcd`);
    await withServer(await ctx.apiServer(undefined, [...securedFlags(pki), ...audit.flags]), async (prod) => {
      const admin = newClient(prod.port, prod.ca, 32, pki.admin);
      const user = newClient(prod.port, prod.ca, workers, pki.user);
      try {
        await prepare(prod, admin, pki.user);
        // Measured while its watch caches still load (the seeded Pods, earlier benchmarks' objects), the first round pays for that.
        const settled = await awaitQuiet(prod.pid);
        ctx.log(`write-path: the server settled ${(settled / 1000).toFixed(1)}s after set-up`);
        const loads = verbLoads(collection, workers);
        await loads.prepare(user);
        ctx.log(`write-path: ${rounds} rounds of ${seconds}s per verb (${writeVerbs.join(', ')}), each against its raw etcd transactions, ${workers} in flight, production chain on`);
        const measured = await measureVerbs(ctx, prod, user, loads, etcd);
        out.push(...verbResults(measured, baselineOf));

        const body = Buffer.from(JSON.stringify(configMap({ generateName: 'ab-' }, 1024)));
        await withServer(await ctx.apiServer(undefined, [emptyAdmissionFlag()]), async (plain) => {
          const anonymous = newClient(plain.port, plain.ca, workers);
          try {
            // A fresh server loads its watch caches (the seeded Pods and every earlier benchmark's
            // objects) for a while after it serves: measured then, it pays that load per create.
            const waited = await awaitQuiet(plain.pid);
            ctx.log(`write-path: the chain-off server settled ${(waited / 1000).toFixed(1)}s after serving`);
            // The chain-on server has run every verb for a minute by now: warm the fresh one as long, or its JIT compiles count against it.
            await writeLoop({ port: plain.port, agent: anonymous.agent, workers, seconds: 3 * warmupSeconds, next: () => ({ method: 'POST', path: collection, body }) });
            // The same keep-alive loop as the verbs (connections kept warm across rounds on both sides).
            const creates: AbWorkload = {
              name: 'creates',
              load: (s, side): Promise<Throughput> =>
                writeLoop({ port: s.port, agent: (side === 'a' ? user : anonymous).agent, workers, seconds, next: () => ({ method: 'POST', path: collection, body }) }),
            };
            ctx.log(`write-path: chain cost, ${abRounds} A/B rounds of ${seconds}s creates, production chain then anonymous + AlwaysAllow + no audit + no admission plugins`);
            const m = await runAbRounds(prod, plain, [creates], abRounds);
            out.push(abResult(m, 0, { name: 'write creates chain on/off', aLabel: 'chain on', bLabel: 'chain off', threshold: 0.85, extraFigures: { connections: workers, seconds } }));
          } finally {
            anonymous.close();
          }
        });
        // Leave nothing in force for later benchmarks on the same etcd.
        await deleteFillerRoleBindings(ctx.etcdEndpoint, fillerNamespaces);
        const left: string[] = [];
        for (const path of [`${policyBindingCollection}/${policyName}`, `${policyCollection}/${policyName}`]) {
          const r = await admin.call('DELETE', path);
          if (r.status !== 200) left.push(`${path}: HTTP ${r.status}`);
        }
        if (left.length > 0) ctx.log(`write-path: clean-up incomplete: ${left.join('; ')}`);
      } finally {
        admin.close();
        user.close();
      }
    });
    return out;
  } finally {
    await etcd.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}
