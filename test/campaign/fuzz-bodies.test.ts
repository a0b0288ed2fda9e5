/**
 * Issue 18, item 1 for request bodies: a fast-check fuzzer sends hostile bodies (malformed and
 * truncated JSON, YAML bombs, Protobuf garbage, wrong kinds, deep nesting, bodies past 3 MiB, huge
 * label and annotation maps, invalid names, unicode and NUL, duplicate keys, big integers, invalid
 * patches of every type) mixed with valid ones to a real API server (a child process) on a real
 * etcd. After every request: the answer is a 2xx for a valid input or a metav1.Status with a 4xx
 * code, and the server is alive; a write carrying keys named "__proto__", "constructor" or
 * "prototype" reads back (answer and GET) with those keys as written. After every batch: etcd
 * changed only where an acknowledged write says it did.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { campaignCases, reportCampaign } from '../support/campaign.js';
import { createRequest } from './support/fuzz-bodies-gen-create.js';
import { encodingRequest } from './support/fuzz-bodies-gen-encodings.js';
import { existingRequest } from './support/fuzz-bodies-gen-patch.js';
import { reservedKeyRequest } from './support/fuzz-bodies-gen-reserved.js';
import { AckLog, checkReadBack, checkReply, describeRequest, type FuzzRequest } from './support/fuzz-bodies-oracle.js';
import { fuzzNamespace } from './support/fuzz-bodies-resources.js';
import { seedFuzzTarget } from './support/fuzz-bodies-seed.js';
import { startFuzzTarget, type FuzzTarget, type Reply } from './support/fuzz-bodies-target.js';

// The server's own bookkeeping, written on its own schedule: its identity lease, the master
// lease and endpoints reconcilers, events.
const background = ['/registry/leases/', '/registry/masterleases/', '/registry/events/', '/registry/services/endpoints/default/', '/registry/endpointslices/default/', '/registry/services/specs/default/', '/registry/ranges/', '/registry/ipaddresses/', '/registry/servicecidrs/'];

let target: FuzzTarget;
let existing: Map<string, Set<string>>;

before(async () => {
  target = await startFuzzTarget();
  existing = await seedFuzzTarget(target);
});

after(async () => {
  await target?.stop();
});

/** A POST whose valid name was taken earlier (a hostile name that happened to be valid): 409 is right. */
function takenName(r: FuzzRequest, reply: Reply): boolean {
  if (r.method !== 'POST' || reply.status !== 409) return false;
  const status = JSON.parse(reply.text) as { reason?: string; details?: { name?: string } };
  return status.reason === 'AlreadyExists' && existing.get(r.keyPrefix)?.has(status.details?.name ?? '') === true;
}

/** A 2xx that says what must read back: its answer and a GET of the object hold those values. */
async function checkWritten(r: FuzzRequest, reply: Reply): Promise<number> {
  if (!r.readBack || reply.status < 200 || reply.status >= 300) return 0;
  const answer = JSON.parse(reply.text) as { metadata: { name: string } };
  checkReadBack(r, answer, 'the answer');
  const collection = r.method === 'POST' ? r.path.replace(/\?.*$/, '') : r.path.replace(/\/[^/]*$/, '');
  const got = await target.send('GET', `${collection}/${answer.metadata.name}`, undefined, {});
  if (got.status !== 200) throw new Error(`GET after the write: ${got.status} ${got.text.slice(0, 200)}\n  sent: ${describeRequest(r)}`);
  checkReadBack(r, JSON.parse(got.text), 'a GET after the write');
  return r.readBack.length;
}

async function checkAlive(r: FuzzRequest): Promise<void> {
  if (!target.server.alive()) throw new Error(`the server process died after: ${describeRequest(r)}`);
  const probe = await target.send('GET', `/api/v1/namespaces/${fuzzNamespace}`, undefined, {}, 10_000).catch((err: Error) => {
    throw new Error(`the server did not answer a GET (${err.message}) after: ${describeRequest(r)}`);
  });
  if (probe.status !== 200) throw new Error(`the server stopped serving (GET namespace: ${probe.status} ${probe.text.slice(0, 200)}) after: ${describeRequest(r)}`);
}

test('hostile request bodies get a 2xx or a 4xx Status, never crash the server, and change etcd only by acknowledged writes', async (t) => {
  const request = fc.oneof(
    { weight: 5, arbitrary: createRequest },
    { weight: 3, arbitrary: encodingRequest },
    { weight: 6, arbitrary: existingRequest },
    { weight: 2, arbitrary: reservedKeyRequest },
  );
  const counts = { tried: 0, acknowledged: 0, snapshots: 0, readBack: 0 };
  const seed = process.env.CAMPAIGN_SEED === undefined ? undefined : Number(process.env.CAMPAIGN_SEED);
  const details = await fc.check(
    fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 8 }), async (batch) => {
      const acks = new AckLog();
      const before = await target.snapshot();
      for (const r of batch) {
        counts.tried++;
        const headers: Record<string, string> = { 'content-type': r.contentType, ...(r.chunked ? { 'transfer-encoding': 'chunked' } : {}) };
        let reply: Reply;
        try {
          reply = await target.send(r.method, r.path, r.body, headers);
        } catch (err) {
          throw new Error(`${(err as Error).message}\n  sent: ${describeRequest(r)}`);
        }
        // A seed an acknowledged delete removed earlier (see the DeleteOptions finding) is rightly not found.
        const gone = reply.status === 404 && r.name !== undefined && existing.get(r.keyPrefix)?.has(r.name) === false;
        if (!takenName(r, reply) && !gone) checkReply(r, reply);
        if (r.method === 'DELETE' && !r.dryRun && reply.status >= 200 && reply.status < 300 && r.name) existing.get(r.keyPrefix)?.delete(r.name);
        acks.record(r, reply);
        counts.readBack += await checkWritten(r, reply);
        if (r.method === 'POST' && reply.status === 201) existing.get(r.keyPrefix)?.add((JSON.parse(reply.text) as { metadata: { name: string } }).metadata.name);
        await checkAlive(r);
      }
      const after = await target.snapshot();
      acks.compare(before, after, background);
      counts.snapshots++;
      counts.acknowledged += acks.count;
    }),
    {
      numRuns: campaignCases(80),
      // A loaded machine runs fewer batches rather than overrunning the campaign's time budget.
      interruptAfterTimeLimit: campaignCases(30_000),
      endOnFailure: true,
      ...(seed !== undefined ? { seed } : {}),
    },
  );
  if (details.failed) {
    // fast-check keeps the property's own error as the cause; the test runner would not print it.
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    assert.fail(`${cause}\n(seed ${details.seed}, path ${details.counterexamplePath ?? ''}; replay with CAMPAIGN_SEED=${details.seed})`);
  }
  assert.ok(counts.tried > 0);
  reportCampaign(t, 'fuzz-bodies', { 'requests tried': counts.tried, 'writes acknowledged': counts.acknowledged, 'etcd snapshots compared': counts.snapshots, 'values read back': counts.readBack, failures: 0 });
});
