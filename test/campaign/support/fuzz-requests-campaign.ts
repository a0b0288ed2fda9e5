/**
 * Campaign support (fuzz-requests): sends cases, judges each answer, and around each batch compares
 * etcd snapshots and checks that the server child is alive and still serving. A failure names what
 * was sent and what came back.
 */
import fc from 'fast-check';
import { describeAnswer, judge, snapshot, unexplained, WriteLedger, type Allow } from './fuzz-requests-oracle.js';
import { rawExchange, type Endpoint, type RawRequest, type RawResponse } from './fuzz-requests-raw.js';
import type { FuzzServer } from './fuzz-requests-server.js';

/** One case: where, what, and what the oracle accepts beyond its base rules. */
export interface Case {
  readonly ep: Endpoint;
  readonly req: RawRequest;
  readonly allow?: Allow;
  /** Extra checks on the answer (returns why it fails). */
  readonly check?: (res: RawResponse) => string | undefined;
  /** Called for a 2xx answer to record the etcd keys the write may change. */
  readonly onSuccess?: (res: RawResponse, ledger: WriteLedger) => void;
}

/** What was sent, readable: the head with control bytes escaped, then the body parts' sizes. */
export function describeRequest(c: Case): string {
  const head = JSON.stringify(c.req.head.subarray(0, 600).toString('latin1'));
  const parts = c.req.parts?.length ? ` + ${c.req.parts.length} body part(s) ${JSON.stringify(Buffer.concat(c.req.parts).subarray(0, 200).toString('latin1'))}` : '';
  return `${head}${c.req.head.length > 600 ? `...(${c.req.head.length} bytes)` : ''}${parts} finish=${c.req.finish ?? 'open'} as ${c.ep.cert ? 'cert' : 'anonymous'}`;
}

/** Counts and the ledger of one campaign test. */
export class Campaign {
  requests = 0;
  snapshots = 0;
  readonly ledger = new WriteLedger();
  constructor(readonly fx: FuzzServer) {}

  /** Sends one case and returns its answer; throws with the request and answer when the oracle fails. */
  async send(c: Case): Promise<RawResponse> {
    const res = await rawExchange(c.ep, c.req);
    this.requests++;
    const why = judge(res, c.allow) ?? c.check?.(res);
    if (why) throw new Error(`${why}\n  sent: ${describeRequest(c)}\n  got:  ${describeAnswer(res)}${this.fx.server.alive() ? '' : '\n  THE SERVER CHILD IS DEAD'}`);
    if (res.status >= 200 && res.status < 300) c.onSuccess?.(res, this.ledger);
    return res;
  }

  /** Runs cases concurrently between two etcd snapshots; then the server must be alive, serving and etcd explained. */
  async batch(cases: readonly Case[]): Promise<RawResponse[]> {
    const before = await snapshot(this.fx.kv, '/registry/');
    this.ledger.clear();
    const results = await Promise.all(cases.map((c) => this.send(c)));
    await this.assertServing();
    const after = await snapshot(this.fx.kv, '/registry/');
    this.snapshots++;
    const bad = unexplained(before, after, this.ledger);
    if (bad.length > 0) throw new Error(`etcd changed without a 2xx write to explain it: ${bad.slice(0, 10).join('; ')}\n  batch sent:\n    ${cases.map(describeRequest).join('\n    ')}`);
    return results;
  }

  /** The child is alive and answers a plain request within its deadline. */
  async assertServing(): Promise<void> {
    if (!this.fx.server.alive()) throw new Error('the server child died');
    const res = await this.fx.admin('GET', '/api/v1/namespaces/fuzz/configmaps/seed-0');
    if (res.status !== 200 && res.status !== 404) throw new Error(`the server stopped serving: ${describeAnswer(res)}`);
  }
}

/**
 * Runs a fast-check property for numRuns (seeded by CAMPAIGN_SEED when set) and throws a short error
 * naming the seed to replay and the failing request, without the whole generated value.
 */
export async function checkProperty<T>(prop: fc.IAsyncProperty<T>, numRuns: number): Promise<void> {
  const seed = process.env.CAMPAIGN_SEED ? Number(process.env.CAMPAIGN_SEED) : undefined;
  const out = await fc.check(prop, { numRuns, endOnFailure: true, ...(seed !== undefined ? { seed } : {}) });
  if (!out.failed) return;
  const err = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
  throw new Error(`failed after ${out.numRuns} run(s); replay with CAMPAIGN_SEED=${out.seed} (path ${out.counterexamplePath ?? '-'}):\n${err}`);
}
