/**
 * Shares of a V8 .cpuprofile's busy time (idle left out) by part of the server, each sample
 * given to the part of its nearest frame that belongs to one, walking from the sampled function
 * up its callers: frames of node's own streams, events and promise jobs belong to no part, so
 * they count for whoever called them (or as Node internals when nothing did). As a program:
 * `node dist/bench/profile-parts.js FILE.cpuprofile`.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { sampleTimes, type CpuProfile, type ProfileNode } from './profile-summary.js';

/** The parts, tried in order on each frame's script URL (or name, for V8's own entries). */
const parts: ReadonlyArray<{ name: string; test: (url: string, fn: string) => boolean }> = [
  { name: 'garbage collection', test: (_u, fn) => fn === '(garbage collector)' },
  { name: 'gRPC + etcd3 client (grpc-js, protobufjs, cockatiel, Long)', test: (u) => /node_modules\/(@grpc|etcd3|protobufjs|@protobufjs|cockatiel|long)\/|node:(internal\/)?http2/.test(u) },
  { name: 'etcd3 store (internal/storage/etcd3)', test: (u) => u.includes('/dist/internal/storage/etcd3/') },
  { name: 'kube Protobuf codec (proto/, storage codec)', test: (u) => /\/dist\/proto\/|\/dist\/internal\/storage\/codec/.test(u) },
  { name: 'watch cache + storage glue (internal/storage/cacher, encoded)', test: (u) => u.includes('/dist/internal/storage/') },
  { name: 'managed fields (internal/fieldmanager)', test: (u) => u.includes('/dist/internal/fieldmanager/') },
  { name: 'admission + CEL (internal/admission, cel, webhook)', test: (u) => /\/dist\/internal\/(admission|cel|webhook)\/|node_modules\/@bufbuild\//.test(u) },
  { name: 'audit (internal/audit)', test: (u) => u.includes('/dist/internal/audit/') },
  { name: 'authn + authz (x509, RBAC)', test: (u) => /\/dist\/internal\/(authn|authz)\//.test(u) },
  { name: 'filters, APF, metrics', test: (u) => /\/dist\/internal\/(filters|flowcontrol|observability)\/|node_modules\/prom-client\//.test(u) },
  { name: 'registry (strategy, defaulting, validation, patch)', test: (u) => /\/dist\/(internal\/(registry|validation|selectors|quota)|api)\//.test(u) },
  {
    name: 'request + response (HTTP, TLS, body decode incl. YAML, handlers)',
    test: (u) => /\/dist\/internal\/(endpoints|request|server)\/|node_modules\/(express|router|body-parser|raw-body|yaml)\/|node:(_http|_tls|tls|https|net)/.test(u),
  },
  { name: 'other dependencies', test: (u) => u.includes('/node_modules/') },
  { name: 'other Capstan code', test: (u) => u.includes('/dist/') },
];
const nodeInternals = 'Node internals (streams, events, promise jobs, V8)';

/** One part's share of busy time. */
export interface PartShare {
  readonly part: string;
  readonly ms: number;
  readonly percent: number;
}

/** The shares of busy time by part, largest first. */
export function partShares(profile: CpuProfile): PartShare[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const cache = new Map<number, string | undefined>();
  const partOf = (id: number): string | undefined => {
    if (cache.has(id)) return cache.get(id);
    const node = byId.get(id) as ProfileNode;
    const hit = parts.find((p) => p.test(node.callFrame.url, node.callFrame.functionName));
    const p = parent.get(id);
    const found = hit ? hit.name : p === undefined ? undefined : partOf(p);
    cache.set(id, found);
    return found;
  };
  const totals = new Map<string, number>();
  let busy = 0;
  for (const [id, ms] of sampleTimes(profile)) {
    const fn = byId.get(id)?.callFrame.functionName;
    if (fn === '(idle)') continue;
    busy += ms;
    const part = partOf(id) ?? nodeInternals;
    totals.set(part, (totals.get(part) ?? 0) + ms);
  }
  return [...totals.entries()].map(([part, ms]) => ({ part, ms, percent: busy > 0 ? (ms / busy) * 100 : 0 })).sort((a, b) => b.ms - a.ms);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: profile-parts FILE.cpuprofile\n');
    process.exit(2);
  }
  const shares = partShares(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  process.stdout.write(`${shares.map((s) => `${s.percent.toFixed(1).padStart(5)}%  ${s.ms.toFixed(0).padStart(7)} ms  ${s.part}`).join('\n')}\n`);
}
