/**
 * Issue 18, item 2: a linearizability check of writes and watches. One etcd, two API servers on it
 * (watch cache on, Protobuf storage). Eight clients run fast-check generated plans of creates,
 * conditional updates, merge patches and deletes (and quorum reads) over twelve ConfigMaps, spread
 * over both servers; watchers on both servers record every event. Meanwhile each server restarts
 * and etcd is compacted to its current revision three times. The recorded history alone is then
 * judged by test/campaign/support/history-checker.ts, with the final state read from each server
 * (quorum and resourceVersion=0) and from etcd directly.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { campaignCases, reportCampaign } from '../support/campaign.js';
import { checkHistory } from './support/history-checker.js';
import { campaignItems, keyName, runClient, type PlannedOp, type Recorder } from './support/history-clients.js';
import { startCluster, type Cluster } from './support/history-cluster.js';
import { call, closeAgents } from './support/history-http.js';
import type { FinalState, History } from './support/history-types.js';
import { startWatcher, type Watcher } from './support/history-watchers.js';

const ns = 'linear';
const keys = 16;
const clients = 8;
// The load phase ends by this time even on a busy machine, so the file stays within its 75 s
// (CAMPAIGN_SCALE stretches it with the number of operations).
const loadBudgetMs = campaignCases(25_000);

const planArb = (length: number) =>
  fc.array(
    fc.record({
      key: fc.nat(keys - 1),
      action: fc.constantFrom<PlannedOp['action']>('write', 'write', 'write', 'write', 'write', 'get', 'list', 'cached-list', 'blind-create'),
      server: fc.nat(1),
      pick: fc.nat(8),
    }),
    { minLength: length, maxLength: length },
  );

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(what: string, timeoutMs: number, probe: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await probe())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

describe('campaign: linearizability of writes and watches', () => {
  let cluster: Cluster;
  before(async () => {
    cluster = await startCluster();
  });
  after(async () => {
    closeAgents();
    await cluster?.stop();
  });

  it('every acknowledged write is in the final state and in every watch stream, once, in order, across restarts and compactions', async (t) => {
    const [a, b] = cluster.servers;
    assert.ok(a && b);
    const created = await call(a, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    assert.equal(created.status, 201, created.text);

    const seed = process.env.CAMPAIGN_SEED ? Number(process.env.CAMPAIGN_SEED) : Math.floor(Math.random() * 2 ** 31);
    const opsPerClient = campaignCases(250);
    const [plans] = fc.sample(fc.array(planArb(opsPerClient), { minLength: clients, maxLength: clients }), { seed, numRuns: 1 });
    assert.ok(plans);
    let rng = seed;
    const random = (): number => {
      rng = (rng * 1103515245 + 12345) % 2 ** 31;
      return rng / 2 ** 31;
    };
    t.diagnostic(`seed ${seed} (CAMPAIGN_SEED=${seed} replays the plans)`);

    const witness = await cluster.witness(ns, (name) => name.startsWith('lin-'));
    const watchers: Watcher[] = [];
    for (const server of [a, b]) {
      for (const mode of ['list', 'lazy', 'initial'] as const) watchers.push(startWatcher(`${mode}-${server.name}`, server, ns, mode, random));
    }

    const rec: Recorder = { writes: [], reads: [], nextId: 1 };
    const total = opsPerClient * clients;
    let done = 0;
    const loadStart = performance.now();
    let faultsDone = false;
    const keepGoing = (): boolean => performance.now() - loadStart < loadBudgetMs;
    // Each client runs its plan, and once it is through, the plan again (with new values) until the faults are over.
    const load = plans.map(async (plan, i) => {
      do await runClient(i, ns, [a, b], plan, rec, () => keepGoing() && !(faultsDone && done >= total), () => done++);
      while (!faultsDone && keepGoing());
    });

    let restarts = 0;
    let compactions = 0;
    const faults = (async () => {
      const at = async (fraction: number): Promise<void> => {
        while (done < total * fraction && keepGoing()) await sleep(20);
      };
      await at(0.15);
      await cluster.compact();
      compactions++;
      await at(0.3);
      let began = performance.now();
      await cluster.restart('a');
      restarts++;
      t.diagnostic(`restart of a took ${Math.round(performance.now() - began)} ms`);
      await at(0.45);
      await cluster.compact();
      compactions++;
      await at(0.6);
      began = performance.now();
      await cluster.restart('b');
      restarts++;
      t.diagnostic(`restart of b took ${Math.round(performance.now() - began)} ms`);
      await at(0.8);
      await cluster.compact();
      compactions++;
      faultsDone = true;
    })();
    await faults;
    await Promise.all(load);
    const loadMs = performance.now() - loadStart;

    // A last acknowledged write after all others, so every watcher must reach its revision.
    const fenceStart = performance.now();
    const fence = await call(a, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: keyName(keys) }, data: { v: 'fence' } });
    assert.equal(fence.status, 201, fence.text);
    rec.writes.push({ id: rec.nextId++, client: -1, server: 'a', kind: 'create', key: keyName(keys), start: fenceStart, end: performance.now(), data: { v: 'fence' }, outcome: 'ok', status: 201, result: { uid: fence.body.metadata.uid, rv: fence.body.metadata.resourceVersion, data: fence.body.data } });
    const fenceRv = BigInt(fence.body.metadata.resourceVersion);
    await until('every watcher to see the fence', 15_000, () => witness.lastRv() >= fenceRv && watchers.every((w) => w.lastRv() >= fenceRv)).catch((err: Error) => t.diagnostic(err.message));

    const finals: FinalState[] = [];
    for (const server of [a, b]) {
      const quorum = await call(server, 'GET', `/api/v1/namespaces/${ns}/configmaps`);
      assert.equal(quorum.status, 200, quorum.text);
      finals.push({ source: `${server.name} quorum list`, rv: quorum.body.metadata.resourceVersion, items: campaignItems(quorum.body) });
      let cached: any;
      await until(`${server.name}'s watch cache to reach ${fenceRv}`, 10_000, async () => {
        const r = await call(server, 'GET', `/api/v1/namespaces/${ns}/configmaps?resourceVersion=0`);
        cached = r.body;
        return r.status === 200 && BigInt(r.body.metadata.resourceVersion) >= fenceRv;
      });
      finals.push({ source: `${server.name} resourceVersion=0 list`, rv: cached.metadata.resourceVersion, items: campaignItems(cached) });
    }
    const etcd = await cluster.etcdState(ns, (name) => name.startsWith('lin-'));
    finals.push({ source: 'etcd', rv: String(etcd.rev), items: etcd.items });
    for (const w of watchers) await w.stop();
    await witness.stop();

    const history: History = { writes: rec.writes, reads: rec.reads, watchers: [witness.record, ...watchers.map((w) => w.record)], finals };
    const verdict = checkHistory(history);
    const outcomes = new Map<string, number>();
    for (const w of rec.writes) outcomes.set(`${w.outcome} ${w.status}`, (outcomes.get(`${w.outcome} ${w.status}`) ?? 0) + 1);
    t.diagnostic(`load ${Math.round(loadMs)} ms, ${done} operations; write outcomes ${JSON.stringify(Object.fromEntries(outcomes))}; 410s met by watchers ${watchers.map((w) => w.expirations()).join('/')}`);
    const odd = rec.writes.filter((w) => w.outcome === 'unknown' && w.status !== 0).map((w) => `#${w.id} ${w.kind} ${w.key} on ${w.server}: ${w.detail}`);
    if (odd.length > 0) t.diagnostic(`writes answered 5xx or unexpectedly: ${odd.slice(0, 5).join(' | ')}`);
    reportCampaign(t, 'linearizability', {
      'writes checked': verdict.writesChecked,
      'events checked': verdict.eventsChecked,
      'reads checked': verdict.readsChecked,
      watchers: watchers.length,
      restarts,
      compactions,
      failures: verdict.failures.length,
    });
    assert.deepEqual(verdict.failures.slice(0, 20), [], `seed ${seed}: ${verdict.failures.length} failures`);
    // The checker is live on this very history: one event taken out of one API watcher's stream is a gap.
    const mutated = structuredClone(history);
    const seg = mutated.watchers[1]?.segments.find((x) => x.events.filter((e) => e.type !== 'BOOKMARK').length > 1);
    const drop = seg?.events.findIndex((e) => e.type !== 'BOOKMARK') ?? -1;
    assert.ok(seg && drop >= 0, 'a watcher segment with events');
    const [dropped] = seg.events.splice(drop, 1);
    assert.ok(
      checkHistory(mutated).failures.some((f) => f.includes(`gap:`) && f.includes(` at ${dropped?.rv} never sent`)),
      `the checker misses the event at ${dropped?.rv} taken out of ${mutated.watchers[1]?.name}`,
    );
    assert.ok(restarts >= 2 && compactions >= 2, `faults ran: ${restarts} restarts, ${compactions} compactions`);
    const acked = rec.writes.filter((w) => w.outcome === 'ok').length;
    assert.ok(acked >= 50 && acked >= rec.writes.length / 5, `enough of the load was acknowledged: ${acked} of ${rec.writes.length} writes`);
  });
});
