/**
 * The noisy-tenant scenario of API Priority and Fairness, shared by the bounded integration test
 * and `make bench`'s apf-flood row. Two users authenticate with static tokens: "tenant-noisy", whose
 * FlowSchema puts it in a small priority level of its own (queuing, no lending or borrowing), and
 * "tenant-quiet", who falls into the suggested global-default level. The quiet tenant's latency is
 * measured alone, then while the noisy tenant lists config maps with ten times as many requests in
 * flight as its level has seats, as a client-go controller stuck in a relist loop would (it honours
 * Retry-After on 429, as client-go does). The figure is the quiet flow's p99 with the flood over its
 * p99 alone; the noisy tenant's 429s are counted.
 */
import { Agent, request } from 'node:https';
import { Worker } from 'node:worker_threads';
import type { FloodWorkerCounts, FloodWorkerData } from './tenant-flood-worker.js';
import type { StaticTokenUser } from './static-tokens.js';

/** The tokens of the two tenants. */
export const noisyToken = 'tenant-noisy-token';
export const quietToken = 'tenant-quiet-token';
/** The token file's users (--token-auth-file). */
export const floodUsers: readonly StaticTokenUser[] = [
  { token: noisyToken, name: 'tenant-noisy', uid: 'tenant-noisy', groups: ['tenants'] },
  { token: quietToken, name: 'tenant-quiet', uid: 'tenant-quiet', groups: ['tenants'] },
];
/** The noisy tenant's priority level and flow schema. */
export const noisyLevel = 'tenant-flood-noisy';
const base = '/apis/flowcontrol.apiserver.k8s.io/v1';

/** Where the scenario runs. */
export interface FloodTarget {
  readonly port: number;
  readonly ca: string;
  /** A token (or none) allowed to create FlowSchemas, PriorityLevelConfigurations and config maps. */
  readonly adminToken?: string;
}

/** How the scenario is sized. */
export interface FloodShape {
  readonly namespace: string;
  /** Config maps the noisy tenant lists (1 KiB each). */
  readonly listSize: number;
  /** The noisy level's nominalConcurrencyShares (its seats follow from the server's concurrency limit). */
  readonly noisyShares: number;
  /** The noisy level's queue length limit (one queue, hand size 1: the one noisy flow has one queue). */
  readonly queueLengthLimit: number;
  /** Quiet requests in flight at once. */
  readonly quietConcurrency: number;
  readonly measureMs: number;
  /** The flood runs this long before the quiet flow is measured under it. */
  readonly floodWarmupMs: number;
}

/** One round's figures. */
export interface FloodRound {
  readonly aloneP99Ms: number;
  readonly floodedP99Ms: number;
  readonly aloneP50Ms: number;
  readonly floodedP50Ms: number;
  readonly quietRequests: { readonly alone: number; readonly flooded: number };
  /** Non-2xx answers the quiet tenant got (should be none). */
  readonly quietFailures: number;
  readonly noisy: { readonly ok: number; readonly rejected: number; readonly other: number; readonly concurrency: number; readonly retryAfter?: string };
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function call(t: FloodTarget, agent: Agent | undefined, method: string, path: string, token: string | undefined, body?: unknown, keepBody = true): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    const req = request({ host: '127.0.0.1', port: t.port, path, method, headers, ca: t.ca, servername: 'localhost', ...(agent ? { agent } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      // The flood's list bodies are only drained: parsing them would load the measuring process.
      res.on('data', (c: Buffer) => keepBody && chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

async function ensure(t: FloodTarget, path: string, collection: string, obj: unknown): Promise<void> {
  const got = await call(t, undefined, 'GET', path, t.adminToken);
  if (got.status === 200) return;
  const made = await call(t, undefined, 'POST', collection, t.adminToken, obj);
  if (made.status !== 201 && made.status !== 409) throw new Error(`POST ${collection}: ${made.status} ${made.body}`);
}

/** Creates the noisy level and schema and the listed config maps; resolves once requests of the noisy tenant are classified to the level. */
export async function prepareFlood(t: FloodTarget, shape: FloodShape): Promise<void> {
  await ensure(t, `/api/v1/namespaces/${shape.namespace}`, '/api/v1/namespaces', { metadata: { name: shape.namespace } });
  const cms = `/api/v1/namespaces/${shape.namespace}/configmaps`;
  const filler = 'x'.repeat(1024);
  for (let i = 0; i < shape.listSize; i += 16) {
    await Promise.all(
      Array.from({ length: Math.min(16, shape.listSize - i) }, (_, j) => ensure(t, `${cms}/item-${i + j}`, cms, { metadata: { name: `item-${i + j}` }, data: { filler } })),
    );
  }
  await ensure(t, `${cms}/target`, cms, { metadata: { name: 'target' }, data: { a: 'b' } });
  await ensure(t, `${base}/prioritylevelconfigurations/${noisyLevel}`, `${base}/prioritylevelconfigurations`, {
    metadata: { name: noisyLevel },
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: shape.noisyShares,
        lendablePercent: 0,
        borrowingLimitPercent: 0,
        limitResponse: { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit: shape.queueLengthLimit } },
      },
    },
  });
  await ensure(t, `${base}/flowschemas/${noisyLevel}`, `${base}/flowschemas`, {
    metadata: { name: noisyLevel },
    spec: {
      priorityLevelConfiguration: { name: noisyLevel },
      matchingPrecedence: 500,
      distinguisherMethod: { type: 'ByUser' },
      rules: [
        {
          subjects: [{ kind: 'User', user: { name: 'tenant-noisy' } }],
          resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }],
          nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        },
      ],
    },
  });
  const level = JSON.parse((await call(t, undefined, 'GET', `${base}/prioritylevelconfigurations/${noisyLevel}`, t.adminToken)).body) as { metadata: { uid: string } };
  const deadline = Date.now() + 20_000;
  for (;;) {
    const probe = await call(t, undefined, 'GET', `${cms}/target`, noisyToken);
    if (probe.headers['x-kubernetes-pf-prioritylevel-uid'] === level.metadata.uid) return;
    if (Date.now() > deadline) throw new Error(`the noisy tenant's requests are not classified to ${noisyLevel} (X-Kubernetes-PF-PriorityLevel-UID ${String(probe.headers['x-kubernetes-pf-prioritylevel-uid'])}, status ${probe.status})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The noisy level's nominal seats, from apiserver_flowcontrol_nominal_limit_seats. */
export async function noisySeats(t: FloodTarget): Promise<number> {
  const text = (await call(t, undefined, 'GET', '/metrics', t.adminToken)).body;
  const m = new RegExp(`^apiserver_flowcontrol_nominal_limit_seats\\{priority_level="${noisyLevel}"\\} (\\S+)$`, 'm').exec(text);
  if (!m) throw new Error(`apiserver_flowcontrol_nominal_limit_seats of ${noisyLevel} is not reported`);
  return Number(m[1]);
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** Runs `concurrency` request loops until stop() is true. */
async function loops(concurrency: number, stop: () => boolean, one: () => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!stop()) await one();
    }),
  );
}

/** The quiet tenant's latencies (ms, sorted) over ms, and its failures. */
async function quietRun(t: FloodTarget, shape: FloodShape, agent: Agent): Promise<{ latencies: number[]; failures: number }> {
  const latencies: number[] = [];
  let failures = 0;
  const end = Date.now() + shape.measureMs;
  await loops(shape.quietConcurrency, () => Date.now() >= end, async () => {
    const started = performance.now();
    const a = await call(t, agent, 'GET', `/api/v1/namespaces/${shape.namespace}/configmaps/target`, quietToken);
    latencies.push(performance.now() - started);
    if (a.status !== 200) failures++;
  });
  return { latencies: latencies.sort((x, y) => x - y), failures };
}

/** One round: the quiet flow alone, then under the flood. */
export async function floodRound(t: FloodTarget, shape: FloodShape, seats: number): Promise<FloodRound> {
  const concurrency = 10 * seats;
  const quietAgent = new Agent({ keepAlive: true, maxSockets: shape.quietConcurrency });
  try {
    // Warm the quiet connections, then measure alone.
    await quietRun(t, { ...shape, measureMs: 300 }, quietAgent);
    const alone = await quietRun(t, shape, quietAgent);
    // The flood runs in a worker thread: draining its lists must not delay this thread's timing.
    const data: FloodWorkerData = { port: t.port, ca: t.ca, path: `/api/v1/namespaces/${shape.namespace}/configmaps`, token: noisyToken, concurrency };
    const worker = new Worker(new URL('./tenant-flood-worker.js', import.meta.url), { workerData: data });
    const counts = new Promise<FloodWorkerCounts>((resolve, reject) => {
      worker.on('message', (m: { type: string; counts?: FloodWorkerCounts }) => m.type === 'counts' && resolve(m.counts as FloodWorkerCounts));
      worker.on('error', reject);
    });
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    await new Promise((r) => setTimeout(r, shape.floodWarmupMs));
    const flooded = await quietRun(t, shape, quietAgent);
    worker.postMessage({ type: 'stop' });
    const noisy = { ...(await counts), concurrency };
    await worker.terminate();
    return {
      aloneP99Ms: percentile(alone.latencies, 99),
      floodedP99Ms: percentile(flooded.latencies, 99),
      aloneP50Ms: percentile(alone.latencies, 50),
      floodedP50Ms: percentile(flooded.latencies, 50),
      quietRequests: { alone: alone.latencies.length, flooded: flooded.latencies.length },
      quietFailures: alone.failures + flooded.failures,
      noisy,
    };
  } finally {
    quietAgent.destroy();
  }
}
