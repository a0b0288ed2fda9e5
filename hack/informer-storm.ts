/**
 * The start-up storm (issue 17, item 3), reproduced: an etcd holding 10,000 Pods and 30,000 other
 * objects (ConfigMaps and Secrets in several namespaces), then per round a fresh API server child
 * and, as soon as it says it serves, 100 informer-style clients (client-go's reflector: LIST
 * resourceVersion=0&limit=500 following continue, then WATCH from the list's resourceVersion;
 * a 429 or 503 is retried after its Retry-After, as client-go does). Prints how long until all 100 are
 * watching. With --compare DIST, rounds alternate between this build and the server of another
 * build's dist/ (A/B in one run, on one etcd).
 *
 * With --early the informers start as soon as the server listens, while its caches still load.
 *
 *   node dist/hack/informer-storm.js [--rounds 2] [--compare /tmp/old/dist] [--data-dir DIR] [--early]
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Etcd3 } from 'etcd3';
import { ensureNamespace, newClient, type Client } from '../bench/client.js';
import { collectionPath, configMap, pod } from '../bench/objects.js';
import { spawnServer as spawnHere } from '../bench/server-handle.js';
import { stringField } from '../bench/watch-stream.js';
import type { KubeObject } from '../api/meta/types.js';
import { protobufCodec } from '../internal/storage/codec.js';
import { startLocalEtcd } from './local-etcd.js';

const informers = 100;
const podNamespace = 'storm-pods';
const podCount = 10_000;
/** The other objects: resource, namespaces, how many in each. */
const others = [
  { resource: 'configmaps', namespaces: ['storm-a', 'storm-b'], each: 10_000 },
  { resource: 'secrets', namespaces: ['storm-c'], each: 10_000 },
] as const;

type Spawn = typeof spawnHere;
type Handle = Pick<Awaited<ReturnType<Spawn>>, 'port' | 'ca' | 'pid' | 'stop'>;

/**
 * --early: a server child (this script with --serve DIST) that reports its port as soon as it
 * listens, before it is ready, so that the informers arrive while its caches load.
 */
function spawnEarly(dist: string): Spawn {
  return (async (config: { etcdEndpoint: string; certDir: string }) => {
    const child = fork(fileURLToPath(import.meta.url), ['--serve', dist, config.etcdEndpoint, config.certDir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const msg = await new Promise<{ port: number; ca: string }>((ok, fail) => {
      child.once('message', (m) => ok(m as { port: number; ca: string }));
      child.once('exit', () => fail(new Error('server child exited before it listened')));
    });
    const handle: Handle = {
      port: msg.port,
      ca: msg.ca,
      pid: child.pid ?? -1,
      stop: async () => {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      },
    };
    return handle;
  }) as unknown as Spawn;
}

/** The --serve child: an API server from dist's build, announced as soon as it listens. */
async function serve(dist: string, etcdEndpoint: string, certDir: string): Promise<void> {
  const { startServer } = (await import(pathToFileURL(join(dist, 'internal/server/server.js')).href)) as typeof import('../internal/server/server.js');
  const { testServerOptions } = (await import(pathToFileURL(join(dist, 'test/support/server.js')).href)) as typeof import('../test/support/server.js');
  const { createLogger } = (await import(pathToFileURL(join(dist, 'internal/observability/logging.js')).href)) as typeof import('../internal/observability/logging.js');
  const { freePort } = (await import(pathToFileURL(join(dist, 'hack/local-etcd.js')).href)) as typeof import('./local-etcd.js');
  const server = await startServer(testServerOptions(etcdEndpoint, await freePort(), certDir), createLogger(0, true));
  process.on('SIGTERM', () => void server.stop().finally(() => process.exit(0)));
  process.send?.({ port: server.port, ca: server.certificate.ca ?? server.certificate.cert });
}

const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};

/** Writes n copies of template under /registry/<resource>/<ns>/<prefix>NNNNN straight to etcd. */
async function fill(etcd: Etcd3, resource: string, ns: string, template: KubeObject, n: number): Promise<void> {
  const have = await etcd.getAll().prefix(`/registry/${resource}/${ns}/`).count();
  if (have >= n) return;
  const batch = 200;
  for (let start = 0; start < n; start += batch) {
    const puts: Promise<unknown>[] = [];
    for (let i = start; i < Math.min(n, start + batch); i++) {
      const name = `x-${String(i).padStart(5, '0')}`;
      const obj = structuredClone(template);
      obj.metadata = { ...obj.metadata, name, namespace: ns, uid: randomUUID() };
      if (resource === 'pods') obj.metadata.labels = { ...obj.metadata.labels, index: String(i) };
      puts.push(etcd.put(`/registry/${resource}/${ns}/${name}`).value(protobufCodec.encode(obj)).exec());
    }
    await Promise.all(puts);
  }
}

/** Seeds through one server (templates as the server stores them), then clones them in etcd. */
async function seed(endpoint: string, certDir: string): Promise<void> {
  const server = await spawnHere({ mode: 'api', etcdEndpoint: endpoint, certDir });
  const client = newClient(server.port, server.ca);
  const etcd = new Etcd3({ hosts: endpoint });
  try {
    const templateOf = async (resource: string, ns: string, body: Record<string, unknown>): Promise<KubeObject> => {
      await ensureNamespace(client, ns);
      const made = await client.call('POST', collectionPath(ns, resource), body);
      if (made.status !== 201 && made.status !== 409) throw new Error(`seeding ${resource}: HTTP ${made.status} ${made.body.toString()}`);
      const name = (body.metadata as { name: string }).name;
      const stored = await client.call('GET', `${collectionPath(ns, resource)}/${name}`);
      return JSON.parse(stored.body.toString()) as KubeObject;
    };
    const podTemplate = await templateOf('pods', podNamespace, pod('template', 0));
    await fill(etcd, 'pods', podNamespace, podTemplate, podCount);
    for (const o of others) {
      for (const ns of o.namespaces) {
        const body = o.resource === 'configmaps' ? configMap({ name: 'template' }) : { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'template' }, stringData: { pad: 'x'.repeat(900) } };
        await fill(etcd, o.resource, ns, await templateOf(o.resource, ns, body), o.each);
      }
    }
  } finally {
    etcd.close();
    client.close();
    await server.stop();
  }
}

/** One request, retried after Retry-After while the server answers 429 or 503 (client-go's rest client). */
async function streamRetrying(client: Client, path: string, onChunk: (c: Buffer) => void, onOk?: () => void, counts?: Map<number, number>): Promise<{ status: number; head: Buffer }> {
  for (;;) {
    let head = Buffer.alloc(0);
    let retryAfter = 1;
    const status = await client.stream(
      'GET',
      path,
      (chunk) => {
        if (head.length < 4096) head = Buffer.concat([head, chunk]).subarray(0, 4096);
        onChunk(chunk);
      },
      (res) => {
        counts?.set(res.statusCode ?? 0, (counts.get(res.statusCode ?? 0) ?? 0) + 1);
        retryAfter = Number(res.headers['retry-after'] ?? '1') || 1;
        if (res.statusCode === 200) onOk?.();
      },
    );
    // client-go retries both after Retry-After (1 s when the server gives none).
    if (status !== 429 && status !== 503) return { status, head };
    await new Promise((r) => setTimeout(r, retryAfter * 1000));
  }
}

/** One informer: resolves with the number of Pods it listed once its watch is open. */
async function informer(client: Client, counts: Map<number, number>): Promise<number> {
  const path = collectionPath(podNamespace, 'pods');
  const needle = '"uid":"';
  let items = 0;
  let tail = '';
  const count = (c: Buffer): void => {
    // Matches split across chunks are seen whole in tail + chunk.
    const text = tail + c.toString('latin1');
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) items++;
    tail = text.slice(Math.max(0, text.length - needle.length + 1));
  };
  let rv: string | undefined;
  let cont: string | undefined;
  do {
    const query: string = cont ? `?limit=500&continue=${encodeURIComponent(cont)}` : '?resourceVersion=0&limit=500';
    const { status, head } = await streamRetrying(client, `${path}${query}`, count, undefined, counts);
    if (status !== 200) throw new Error(`list: HTTP ${status}: ${head.toString('utf8', 0, 200)}`);
    tail = '';
    rv ??= stringField(head, 'resourceVersion');
    cont = stringField(head, 'continue');
  } while (cont);
  return await new Promise<number>((resolveWatching, reject) => {
    streamRetrying(client, `${path}?watch=1&resourceVersion=${rv ?? ''}&allowWatchBookmarks=true&timeoutSeconds=600`, () => undefined, () => resolveWatching(items), counts).then(
      ({ status }) => reject(new Error(`watch ended: HTTP ${status}`)),
      reject,
    );
  });
}

/** CPU seconds (user + system, all threads) process pid has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function round(spawn: Spawn, label: string, endpoint: string, certDir: string): Promise<number> {
  const server = await spawn({ mode: 'api', etcdEndpoint: endpoint, certDir });
  const client = newClient(server.port, server.ca, Number.POSITIVE_INFINITY);
  const counts = new Map<number, number>();
  const started = performance.now();
  const cpu0 = cpuSeconds(server.pid);
  try {
    const seen = await Promise.all(Array.from({ length: informers }, () => informer(client, counts)));
    const ms = performance.now() - started;
    const cpu = cpuSeconds(server.pid) - cpu0;

    const wrong = seen.filter((n) => n !== podCount + 1).length;
    if (wrong) process.stdout.write(`counts seen: ${[...new Set(seen)].join(', ')}\n`);
    process.stdout.write(`${label}: ${informers} informers synced in ${(ms / 1000).toFixed(2)} s, server CPU ${cpu.toFixed(1)} s; responses ${JSON.stringify(Object.fromEntries(counts))}${wrong ? `; ${wrong} saw a wrong count` : ''}\n`);
    return ms;
  } finally {
    client.close();
    await server.stop();
  }
}

async function main(): Promise<void> {
  if (opt('--serve')) return await serve(argv[1] as string, argv[2] as string, argv[3] as string);
  const early = argv.includes('--early');
  const rounds = Number(opt('--rounds') ?? '2');
  const compare = opt('--compare');
  const dataDir = opt('--data-dir');
  const etcd = await startLocalEtcd(dataDir ? { dataDir } : {});
  const certDir = await mkdtemp(join(tmpdir(), 'capstan-storm-certs-'));
  try {
    const t = performance.now();
    await seed(etcd.endpoint, certDir);
    process.stdout.write(`seeded in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
    const variants: Array<{ label: string; spawn: Spawn }> = [{ label: 'this build', spawn: early ? spawnEarly(resolve(fileURLToPath(import.meta.url), '../..')) : spawnHere }];
    if (compare && early) variants.push({ label: `compare (${compare})`, spawn: spawnEarly(resolve(compare)) });
    else if (compare) {
      const mod = (await import(pathToFileURL(join(resolve(compare), 'bench/server-handle.js')).href)) as { spawnServer: Spawn };
      variants.push({ label: `compare (${compare})`, spawn: mod.spawnServer });
    }
    const times = new Map<string, number[]>(variants.map((v) => [v.label, []]));
    for (let r = 0; r < rounds; r++) {
      // Alternate which goes first, so neither always meets the other's leftovers.
      const order = r % 2 === 0 ? variants : [...variants].reverse();
      for (const v of order) times.get(v.label)?.push(await round(v.spawn, `round ${r + 1} ${v.label}`, etcd.endpoint, certDir));
    }
    for (const [label, ms] of times) process.stdout.write(`${label}: ${ms.map((m) => (m / 1000).toFixed(2)).join(' s, ')} s\n`);
  } finally {
    await rm(certDir, { recursive: true, force: true });
    await etcd.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`informer-storm: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
