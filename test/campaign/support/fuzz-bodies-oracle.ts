/**
 * The body fuzzer's oracle: what one hostile request is, what answers it may get (a 2xx only for an
 * input that is valid, else a metav1.Status Failure with a 4xx code equal to the HTTP status), and
 * whether etcd changed only where an acknowledged write says it did.
 */
import fc from 'fast-check';
import type { KeyState, Reply, Snapshot } from './fuzz-bodies-target.js';

/** What the fuzzer knows the answer must be. */
export type Expectation =
  /** A 2xx; or, where kube too may refuse a valid input, the one refusal given in `unless`. */
  | { readonly kind: 'ok'; readonly unless?: { readonly code: number; readonly reason: string; readonly message: RegExp } }
  | { readonly kind: 'fail'; readonly code?: number; readonly reason?: string; readonly message?: string | RegExp }
  | { readonly kind: 'either' };

/** One request the fuzzer sends. */
export interface FuzzRequest {
  /** Which generator made it and what it is about, for the failure message. */
  readonly label: string;
  readonly method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly contentType: string;
  readonly body: Buffer;
  readonly expect: Expectation;
  /** The etcd key prefix of the resource (POST: the written key is this plus the answer's name). */
  readonly keyPrefix: string;
  /** The object the path names (PUT, PATCH, DELETE). */
  readonly name?: string;
  /** Sent with Transfer-Encoding: chunked instead of a Content-Length. */
  readonly chunked?: boolean;
  /** A dry run (the body asks for it): a 2xx writes nothing. */
  readonly dryRun?: boolean;
  /** Values a 2xx must hold, in its answer and in a GET after it. */
  readonly readBack?: readonly ReadBack[];
}

/** One value a written object must hold: at path (own keys only, "__proto__" included), value. */
export interface ReadBack {
  readonly path: readonly string[];
  readonly value: unknown;
}

/** Builds a request whose fast-check rendering names it without printing megabytes. */
export function fuzzRequest(r: FuzzRequest): FuzzRequest {
  return Object.assign(r, { [fc.toStringMethod]: () => describeRequest(r) });
}

function head(s: string, n = 300): string {
  const flat = JSON.stringify(s.length > n ? s.slice(0, n) : s);
  return s.length > n ? `${flat}... (${s.length} chars)` : flat;
}

/** What was sent, for a failure message. */
export function describeRequest(r: FuzzRequest): string {
  return `[${r.label}] ${r.method} ${r.path} (${r.contentType}, ${r.body.length} bytes) body ${head(r.body.toString('utf8'))}`;
}

/** Throws with what was sent and what came back unless reply is an answer the expectation allows. */
export function checkReply(r: FuzzRequest, reply: Reply): void {
  const fail = (why: string): never => {
    throw new Error(`${why}\n  sent: ${describeRequest(r)}\n  got:  ${reply.status} ${reply.contentType} ${head(reply.text, 600)}`);
  };
  if (reply.status >= 200 && reply.status < 300) {
    if (r.expect.kind === 'fail') fail(`a 2xx for an invalid input (wanted ${r.expect.code ?? '4xx'} ${r.expect.reason ?? ''})`);
    return;
  }
  if (reply.status < 400 || reply.status >= 500) fail(`status ${reply.status}: neither a success nor a client error`);
  let status: Record<string, unknown>;
  try {
    status = JSON.parse(reply.text) as Record<string, unknown>;
  } catch {
    return fail('the error is not a JSON metav1.Status');
  }
  if (status.kind !== 'Status' || status.apiVersion !== 'v1' || status.status !== 'Failure') fail('the error is not a metav1.Status Failure');
  if (status.code !== reply.status) fail(`the Status code ${String(status.code)} is not the HTTP status`);
  if (typeof status.reason !== 'string' || status.reason === '') fail('the Status has no reason');
  if (r.expect.kind === 'ok') {
    const u = r.expect.unless;
    if (!u || u.code !== reply.status || u.reason !== status.reason || !u.message.test(String(status.message ?? ''))) fail('a valid input was refused');
  }
  if (r.expect.kind === 'fail') {
    const e = r.expect;
    if (e.code !== undefined && e.code !== reply.status) fail(`wanted ${e.code}`);
    if (e.reason !== undefined && e.reason !== status.reason) fail(`wanted reason ${e.reason}`);
    const message = String(status.message ?? '');
    if (typeof e.message === 'string' && message !== e.message) fail(`wanted message ${JSON.stringify(e.message)}`);
    if (e.message instanceof RegExp && !e.message.test(message)) fail(`wanted message matching ${String(e.message)}`);
  }
}

/**
 * Throws with what was sent unless obj (an answer or a GET, parsed with JSON.parse) holds every
 * readBack value of r as own keys along its path, and nothing on the way has another prototype.
 */
export function checkReadBack(r: FuzzRequest, obj: unknown, where: string): void {
  for (const { path, value } of r.readBack ?? []) {
    let at: unknown = obj;
    for (const key of path) {
      if (typeof at !== 'object' || at === null || Object.getPrototypeOf(at) !== Object.prototype || !Object.hasOwn(at, key)) {
        throw new Error(`${where}: ${path.join('.')} does not read back (no own key ${JSON.stringify(key)} in ${head(JSON.stringify(at) ?? 'undefined')})\n  sent: ${describeRequest(r)}`);
      }
      at = Object.getOwnPropertyDescriptor(at, key)?.value;
    }
    if (JSON.stringify(at) !== JSON.stringify(value)) {
      throw new Error(`${where}: ${path.join('.')} reads back ${head(JSON.stringify(at) ?? 'undefined')}, was written ${JSON.stringify(value)}\n  sent: ${describeRequest(r)}`);
    }
  }
}

/** The writes the server acknowledged in one batch, by etcd key: the last one per key counts. */
export class AckLog {
  private readonly last = new Map<string, { readonly resourceVersion?: string; readonly deleted: boolean; readonly by: string }>();
  count = 0;

  /** Records a 2xx answer to r (its body the object written, or for a delete the object removed). */
  record(r: FuzzRequest, reply: Reply): void {
    if (reply.status < 200 || reply.status >= 300) return;
    if (r.dryRun || /[?&]dryRun=/.test(r.path)) return;
    const obj = JSON.parse(reply.text) as { kind?: string; metadata?: { name?: string; resourceVersion?: string; deletionTimestamp?: string; finalizers?: string[] } };
    const name = r.method === 'POST' ? obj.metadata?.name : r.name;
    if (!name) throw new Error(`a 2xx answer without a name: ${describeRequest(r)} -> ${reply.text.slice(0, 300)}`);
    const key = `${r.keyPrefix}${name}`;
    // A delete that only marked the object (finalizers) is an update that left it in place.
    const deleted = r.method === 'DELETE' && (obj.kind === 'Status' || !(obj.metadata?.finalizers?.length && obj.metadata.deletionTimestamp));
    this.last.set(key, { ...(deleted ? {} : { resourceVersion: obj.metadata?.resourceVersion }), deleted, by: describeRequest(r) });
    this.count++;
  }

  /**
   * Throws unless after differs from before only as the acknowledged writes say: each written key
   * holds the revision its last write answered with (gone if deleted), and every other key is
   * byte for byte unchanged. Keys under ignoredPrefixes (the server's own bookkeeping) are skipped.
   */
  compare(before: Snapshot, after: Snapshot, ignoredPrefixes: readonly string[]): void {
    const ignored = (k: string): boolean => ignoredPrefixes.some((p) => k.startsWith(p));
    const same = (a: KeyState | undefined, b: KeyState | undefined): boolean =>
      a === b || (a !== undefined && b !== undefined && a.modRevision === b.modRevision && a.value.equals(b.value));
    for (const key of new Set([...before.keys(), ...after.keys()])) {
      if (ignored(key)) continue;
      const was = before.get(key);
      const now = after.get(key);
      const ack = this.last.get(key);
      if (!ack) {
        if (!same(was, now)) throw new Error(`etcd key ${key} changed without an acknowledged write: ${describeState(was)} -> ${describeState(now)}`);
        continue;
      }
      if (ack.deleted) {
        if (now) throw new Error(`etcd key ${key} is still there (${describeState(now)}) after an acknowledged delete: ${ack.by}`);
      } else if (!now) {
        throw new Error(`etcd key ${key} is gone although its last acknowledged write (revision ${ack.resourceVersion}) kept it: ${ack.by}`);
      } else if (now.modRevision !== ack.resourceVersion) {
        throw new Error(`etcd key ${key} is at revision ${now.modRevision}, its last acknowledged write answered ${ack.resourceVersion}: ${ack.by}`);
      }
    }
  }
}

function describeState(s: KeyState | undefined): string {
  return s ? `revision ${s.modRevision}, ${s.value.length} bytes` : 'absent';
}
