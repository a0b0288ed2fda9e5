/**
 * Campaign support (fuzz-requests): the oracle. An answer is a success, or a metav1.Status whose
 * code is the HTTP status, with a reason, and a 4xx code; never a 5xx, never a hang. etcd is
 * snapshotted around each batch and every changed key must be explained by a 2xx write the fuzzer
 * made (the server's own bookkeeping keys aside).
 */
import type { Etcd3 } from 'etcd3';
import { parse as parseYaml } from 'yaml';
import type { RawResponse } from './fuzz-requests-raw.js';

/** What a case allows beyond the base oracle. */
export interface Allow {
  /** Node's HTTP parser may answer with its own plain 400/431 and close (Go's net/http does the same for kube). */
  readonly parserReject?: boolean;
  /** A 2xx answer may be a stream still open (watch). */
  readonly stream?: boolean;
  /** The TLS handshake may be refused (no HTTP answer at all). */
  readonly tlsReject?: boolean;
  /** A HEAD request: an answer has no body, so a 4xx cannot be read as a Status. */
  readonly head?: boolean;
  /** The exact status kube gives, when the case knows it. */
  readonly status?: number | readonly number[];
  /** A substring (or pattern) kube's message has, when the case knows it. */
  readonly message?: string | RegExp;
  /** The reason kube gives, when the case knows it. */
  readonly reason?: string;
}

/** The head of an answer for a failure message. */
export function describeAnswer(res: RawResponse): string {
  const flags = [res.hung ? 'HUNG' : '', res.closedEarly ? `closed early (${res.closedEarly})` : '', res.streaming ? 'streaming' : ''].filter(Boolean).join(' ');
  return `status ${res.status}${flags ? ` [${flags}]` : ''} content-type ${res.headers['content-type'] ?? '-'} body ${JSON.stringify(res.body.subarray(0, 400).toString('utf8'))}`;
}

/**
 * Whether res is Node's own answer before any handler (plain text, no Status): llhttp's 400 for a
 * malformed request, 431 for headers past the limit, 417 for an Expect other than 100-continue. Go's
 * net/http answers these itself for kube too (400 Bad Request, 431, 417 Expectation Failed).
 */
export function isParserReject(res: RawResponse): boolean {
  return [0, 400, 417, 431].includes(res.status) && !(res.headers['content-type'] ?? '').includes('json');
}

/** Checks one answer; returns why it fails the oracle, or undefined. */
export function judge(res: RawResponse, allow: Allow = {}): string | undefined {
  if (res.hung && !(res.streaming && allow.stream)) return 'no complete answer before the deadline (hang)';
  if (res.status === 0) {
    if (allow.tlsReject || allow.parserReject) return undefined;
    return `no HTTP answer (${res.closedEarly ?? 'nothing'})`;
  }
  const want = allow.status === undefined ? undefined : typeof allow.status === 'number' ? [allow.status] : allow.status;
  // A 5xx only where kube itself answers one and the case names it (504 for a too large resourceVersion).
  if (res.status >= 500 && !want?.includes(res.status)) return `server error ${res.status}`;
  if (res.streaming && !allow.stream) return 'a streamed answer where none was expected';
  if (res.closedEarly && !res.streaming && !(allow.parserReject && isParserReject(res))) return `answer cut short: ${res.closedEarly}`;
  if (want && !want.includes(res.status)) return `expected status ${want.join(' or ')}`;
  if (res.status >= 200 && res.status < 300) return undefined;
  if (res.status < 400) return `unexpected status ${res.status}`;
  const fail = res.status >= 500 ? 'a 5xx' : 'a 4xx';
  if (allow.parserReject && isParserReject(res)) return undefined;
  if (allow.head) return undefined;
  // kube's NotFoundHandler (k8s.io/apiserver/pkg/util/notfoundhandler) ends the chain with Go's
  // http.NotFound for a path no handler claims: plain text, not a Status.
  if (res.status === 404 && res.body.toString() === '404 page not found\n' && allow.message === undefined) return undefined;
  const type = res.headers['content-type'] ?? '';
  if (type.startsWith('application/vnd.kubernetes.protobuf')) {
    // A Status in kube's Protobuf envelope: the magic, then the TypeMeta naming it.
    const ok = res.body.subarray(0, 4).toString('latin1') === 'k8s\u0000' && res.body.includes('Status');
    return ok ? undefined : 'a 4xx Protobuf answer that is not a Status';
  }
  let status: { kind?: unknown; code?: unknown; reason?: unknown; status?: unknown; message?: unknown };
  try {
    status = type.startsWith('application/yaml') ? parseYaml(res.body.toString('utf8')) : JSON.parse(res.body.toString('utf8'));
  } catch {
    return 'a 4xx answer that is not a JSON or YAML metav1.Status';
  }
  if (status.kind !== 'Status') return `${fail} answer whose kind is not Status`;
  if (status.code !== res.status) return `Status.code ${String(status.code)} differs from the HTTP status`;
  if (status.status !== 'Failure') return 'Status.status is not Failure';
  if (typeof status.reason !== 'string' || status.reason === '') return 'Status without a reason';
  if (allow.reason !== undefined && status.reason !== allow.reason) return `expected reason ${allow.reason}`;
  const msg = typeof status.message === 'string' ? status.message : '';
  if (allow.message !== undefined && !(typeof allow.message === 'string' ? msg.includes(allow.message) : allow.message.test(msg))) return `expected message ${String(allow.message)}`;
  return undefined;
}

/** key -> mod_revision of every key under prefix. */
export type Snapshot = Map<string, string>;

/** Reads every key under prefix with its mod_revision. */
export async function snapshot(kv: Etcd3, prefix: string): Promise<Snapshot> {
  const res = await kv.getAll().prefix(prefix).exec();
  return new Map(res.kvs.map((k) => [k.key.toString('utf8'), String(k.mod_revision)]));
}

/**
 * Keys the server itself rewrites on its own: its identity lease, the master lease, events it
 * records, allocator ranges, and default/kubernetes (its reconciler's first pass, 10 s after start,
 * rewrites the Service once with internalTrafficPolicy defaulted).
 */
const serverOwned = [/^\/registry\/(services\/specs|services\/endpoints|endpointslices)\/default\/kubernetes$/, /^\/registry\/leases\/kube-system\//, /^\/registry\/masterleases\//, /^\/registry\/events\//, /^\/registry\/ranges\//, /^\/registry\/apiserver/];

/** The keys a fuzzer's 2xx writes may have changed. */
export class WriteLedger {
  readonly keys = new Set<string>();
  readonly prefixes: string[] = [];
  /** Records a 2xx write to key (or every key under prefix for a collection). */
  wrote(key: string, collection = false): void {
    if (collection) this.prefixes.push(key);
    else this.keys.add(key);
  }
  explains(key: string): boolean {
    return this.keys.has(key) || this.prefixes.some((p) => key.startsWith(p)) || serverOwned.some((r) => r.test(key));
  }
  clear(): void {
    this.keys.clear();
    this.prefixes.length = 0;
  }
}

/** The changes between two snapshots that the ledger does not explain. */
export function unexplained(before: Snapshot, after: Snapshot, ledger: WriteLedger): string[] {
  const out: string[] = [];
  for (const [k, rev] of after) if (before.get(k) !== rev && !ledger.explains(k)) out.push(`${before.has(k) ? 'changed' : 'added'} ${k}`);
  for (const k of before.keys()) if (!after.has(k) && !ledger.explains(k)) out.push(`removed ${k}`);
  return out;
}
