/**
 * The first half of the linearizability checker: from the recorded history alone, the revision
 * order of every applied write. Acknowledged writes sit at the resourceVersion they answered;
 * unknown-outcome writes are placed only where a read, list or event shows their unique value `v`
 * (or, for a delete, the DELETED event of the version it was conditional on). Then each key's chain
 * is replayed in revision order, so each version's expected object follows from the writes alone.
 */
import type { History, ObjectState, WriteRecord } from './history-types.js';

/** One applied write at its revision, with the object before and after it as the replay computes them. */
export interface Version {
  readonly rev: bigint;
  readonly key: string;
  readonly write: WriteRecord;
  /** What the history shows of it: the write's answer, or the read or event that evidences it. */
  readonly seen: ObjectState;
  before?: ObjectState;
  after?: ObjectState;
}

/** Every applied write in revision order, with lookups by revision and by key. */
export interface Timeline {
  readonly versions: readonly Version[];
  readonly byRev: ReadonlyMap<bigint, Version>;
  readonly byKey: ReadonlyMap<string, readonly Version[]>;
  readonly maxRev: bigint;
}

interface Observation {
  readonly key: string;
  readonly obj: ObjectState;
  readonly deleted: boolean;
  readonly where: string;
}

/** Every object the history shows outside of write answers, with where it was seen. */
function observations(h: History): Observation[] {
  const out: Observation[] = [];
  const items = (rec: Readonly<Record<string, ObjectState>>, where: string) => {
    for (const [key, obj] of Object.entries(rec)) out.push({ key, obj, deleted: false, where });
  };
  for (const r of h.reads) {
    if (r.object && r.key) out.push({ key: r.key, obj: r.object, deleted: false, where: `read #${r.id}` });
    if (r.items) items(r.items, `list #${r.id}`);
  }
  for (const w of h.watchers) {
    w.segments.forEach((s, i) => {
      if (s.list) items(s.list.items, `${w.name} list ${i}`);
      for (const e of s.events) {
        if (e.type !== 'BOOKMARK' && e.object) out.push({ key: e.key, obj: e.object, deleted: e.type === 'DELETED', where: `${w.name} event ${e.type} ${e.rv}` });
      }
    });
  }
  for (const f of h.finals) items(f.items, `final ${f.source}`);
  return out;
}

/** The versions of a history's writes, reporting each contradiction to fail. */
export function buildTimeline(h: History, fail: (msg: string) => void): Timeline {
  const byRev = new Map<bigint, Version>();
  const placed = new Map<number, bigint>();
  const place = (rev: bigint, write: WriteRecord, seen: ObjectState): void => {
    const other = byRev.get(rev);
    if (other) {
      fail(`resourceVersion ${rev} answered for two writes: #${other.write.id} (${describe(other.write)}) and #${write.id} (${describe(write)})`);
      return;
    }
    const at = placed.get(write.id);
    if (at !== undefined) {
      fail(`write #${write.id} (${describe(write)}, outcome ${write.outcome}) applied twice: at ${at} and at ${rev}`);
      return;
    }
    placed.set(write.id, rev);
    byRev.set(rev, { rev, key: write.key, write, seen });
  };
  for (const w of h.writes) if (w.outcome === 'ok' && w.result) place(BigInt(w.result.rv), w, w.result);

  const byValue = new Map<string, WriteRecord>();
  for (const w of h.writes) if (w.data?.v !== undefined) byValue.set(`${w.key}\0${w.data.v}`, w);
  const obs = observations(h);
  for (const o of obs) {
    if (o.deleted) continue;
    const rev = BigInt(o.obj.rv);
    if (byRev.has(rev)) continue;
    const w = byValue.get(`${o.key}\0${o.obj.data.v}`);
    if (!w) fail(`${o.where}: ${o.key} at ${rev} (v=${o.obj.data.v}) was written by no write of the history`);
    else if (w.outcome === 'unknown') place(rev, w, o.obj);
    else if (w.outcome === 'ok') fail(`${o.where}: ${o.key} at ${rev} carries the value of write #${w.id}, acknowledged at ${w.result?.rv}: applied twice`);
    else fail(`${o.where}: ${o.key} at ${rev} carries the value of write #${w.id} (${describe(w)}), which was ${w.outcome} (${w.status} ${w.detail ?? ''}): a failed write changed the state`);
  }
  for (const o of obs) {
    if (!o.deleted) continue;
    const rev = BigInt(o.obj.rv);
    if (byRev.has(rev)) continue;
    const prior = [...byRev.values()].filter((v) => v.key === o.key && v.rev < rev && v.write.kind !== 'delete').sort((a, b) => (a.rev < b.rev ? 1 : -1))[0];
    // kube answers a delete with a Status, so an acknowledged delete is placed, like an unknown one,
    // by the DELETED event of the version it was conditional on.
    const candidates = prior ? h.writes.filter((x) => x.kind === 'delete' && (x.outcome === 'ok' || x.outcome === 'unknown') && x.key === o.key && x.precondition?.rv === String(prior.rev) && !placed.has(x.id)) : [];
    const w = candidates.find((x) => x.outcome === 'ok') ?? candidates[0];
    if (w) place(rev, w, o.obj);
    else fail(`${o.where}: ${o.key} deleted at ${rev} by no write of the history (last version before it: ${prior ? prior.rev : 'none'})`);
  }
  for (const w of h.writes) {
    if (w.outcome === 'ok' && !placed.has(w.id)) fail(`write #${w.id} (${describe(w)}) was acknowledged, but no list, event or final state shows it`);
  }

  const versions = [...byRev.values()].sort((a, b) => (a.rev < b.rev ? -1 : a.rev > b.rev ? 1 : 0));
  const byKey = new Map<string, Version[]>();
  for (const v of versions) {
    const list = byKey.get(v.key) ?? [];
    list.push(v);
    byKey.set(v.key, list);
  }
  for (const chain of byKey.values()) replayChain(chain, fail);
  return { versions, byRev, byKey, maxRev: versions.length > 0 ? (versions[versions.length - 1] as Version).rev : 0n };
}

/** Replays one key's versions in revision order, setting before and after and checking each write's precondition and answer. */
function replayChain(chain: Version[], fail: (msg: string) => void): void {
  let state: ObjectState | undefined;
  const uids = new Set<string>();
  for (const v of chain) {
    const w = v.write;
    const at = `write #${w.id} (${describe(w)}) at ${v.rev}`;
    v.before = state;
    if (w.kind === 'create') {
      if (state) fail(`${at} created ${w.key} while version ${state.rv} existed`);
      if (uids.has(v.seen.uid)) fail(`${at} reused uid ${v.seen.uid} of an earlier incarnation of ${w.key}`);
      uids.add(v.seen.uid);
      v.after = { uid: v.seen.uid, rv: String(v.rev), data: { ...w.data } };
    } else {
      if (!state) fail(`${at} applied to ${w.key} while it did not exist`);
      else if (state.rv !== w.precondition?.rv) fail(`${at} was conditional on resourceVersion ${w.precondition?.rv} but applied over version ${state.rv}`);
      else if (w.precondition.uid !== undefined && w.precondition.uid !== state.uid) fail(`${at} was conditional on uid ${w.precondition.uid} but applied over uid ${state.uid}`);
      const base = state ?? { uid: v.seen.uid, rv: '', data: {} };
      v.after = w.kind === 'delete' ? undefined : { uid: base.uid, rv: String(v.rev), data: w.kind === 'patch' ? { ...base.data, ...w.data } : { ...w.data } };
    }
    const expected = w.kind === 'delete' ? v.before : v.after;
    if (expected && w.outcome === 'ok' && !sameObject(v.seen, { ...expected, rv: String(v.rev) })) {
      fail(`${at} answered ${show(v.seen)}, the replay expects ${show({ ...expected, rv: String(v.rev) })}`);
    }
    state = v.after;
  }
}

/** The state of every key at revision rev (keys absent there are left out). */
export function stateAt(t: Timeline, rev: bigint): Map<string, ObjectState> {
  const out = new Map<string, ObjectState>();
  for (const [key, chain] of t.byKey) {
    const v = versionAt(chain, rev);
    if (v?.after) out.set(key, v.after);
  }
  return out;
}

/** The last version of one key's chain at or before rev. */
export function versionAt(chain: readonly Version[], rev: bigint): Version | undefined {
  let lo = 0;
  let hi = chain.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((chain[mid] as Version).rev <= rev) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? chain[lo - 1] : undefined;
}

/** Whether two objects agree in uid, resourceVersion and data. */
export function sameObject(a: ObjectState, b: ObjectState): boolean {
  if (a.uid !== b.uid || a.rv !== b.rv) return false;
  const ka = Object.keys(a.data);
  return ka.length === Object.keys(b.data).length && ka.every((k) => a.data[k] === b.data[k]);
}

/** An object in one short line for failure messages. */
export function show(o: ObjectState | undefined): string {
  return o ? `{rv ${o.rv}, uid ${o.uid.slice(0, 8)}, data ${JSON.stringify(o.data)}}` : 'absent';
}

/** A write in one short line for failure messages. */
export function describe(w: WriteRecord): string {
  const pre = w.precondition ? ` if rv=${w.precondition.rv}${w.precondition.uid ? ` uid=${w.precondition.uid.slice(0, 8)}` : ''}` : '';
  return `${w.kind} ${w.key}${pre} v=${w.data?.v ?? '-'} by client ${w.client} on ${w.server}`;
}
