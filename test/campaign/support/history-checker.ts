/**
 * The linearizability checker of issue 18's campaign, independent of the server: it judges a
 * recorded history (history-types.ts) alone. Every acknowledged write has its own resourceVersion,
 * in real-time order; failed writes changed nothing and failed rightly; quorum reads are never
 * stale; every list, relist and final state equals the replay at its resourceVersion; and every
 * watcher saw, in strictly increasing order, each write inside its window exactly once, with the
 * right type and content.
 */
import { buildTimeline, describe, sameObject, show, stateAt, versionAt, type Timeline, type Version } from './history-timeline.js';
import type { History, ObjectState, WatcherRecord, WriteRecord } from './history-types.js';

/** The checker's verdict: every failure found, and what it checked. */
export interface Verdict {
  readonly failures: string[];
  readonly writesChecked: number;
  readonly eventsChecked: number;
  readonly readsChecked: number;
}

/** Checks a history; never throws for a bad history, it lists what is wrong instead. */
export function checkHistory(h: History): Verdict {
  const failures: string[] = [];
  const fail = (msg: string): void => {
    failures.push(msg);
  };
  const t = buildTimeline(h, fail);
  const ackedBefore = ackIndex(t);
  checkRealTime(t, ackedBefore, fail);
  checkRejections(h.writes, t, ackedBefore, fail);
  let readsChecked = 0;
  for (const r of h.reads) {
    if (r.status !== 200 && r.status !== 404) continue;
    readsChecked++;
    const floor = ackedBefore(r.start);
    if (r.kind === 'list' && r.listRv !== undefined && r.items) {
      const rv = BigInt(r.listRv);
      if (r.quorum && floor && rv < floor.rev) fail(`stale list #${r.id} on ${r.server}: at ${rv}, but write #${floor.write.id} was acknowledged at ${floor.rev} before it began`);
      compareState(`list #${r.id} on ${r.server} at ${rv}`, r.items, stateAt(t, rv), fail);
    } else if (r.kind === 'get' && r.key) {
      const chain = t.byKey.get(r.key) ?? [];
      if (r.object) {
        const v = t.byRev.get(BigInt(r.object.rv));
        if (v && (v.key !== r.key || !v.after || !sameObject(r.object, v.after))) fail(`read #${r.id} of ${r.key} on ${r.server} returned ${show(r.object)}, the replay has ${show(v.after)} at ${v.rev}`);
        const next = chain.find((x) => x.rev > BigInt(r.object?.rv ?? '0'));
        if (r.quorum && floor && next && next.rev <= floor.rev) fail(`stale read #${r.id} of ${r.key} on ${r.server}: returned ${r.object.rv}, but write #${next.write.id} replaced it at ${next.rev}, acknowledged before the read began`);
      } else if (r.quorum && floor) {
        const cur = versionAt(chain, floor.rev);
        const next = cur && chain.find((x) => x.rev > cur.rev);
        if (cur?.after && (!next || next.write.start > r.end)) fail(`stale read #${r.id} on ${r.server}: 404 for ${r.key}, which existed (version ${cur.rev}) for the whole read`);
      }
    }
  }
  let eventsChecked = 0;
  for (const w of h.watchers) eventsChecked += checkWatcher(w, t, fail);
  for (const f of h.finals) {
    const rv = f.rv === undefined ? t.maxRev : BigInt(f.rv);
    if (rv < t.maxRev) fail(`final state from ${f.source} is at ${rv}, before the last write at ${t.maxRev}`);
    compareState(`final state from ${f.source} at ${rv}`, f.items, stateAt(t, rv), fail);
  }
  return { failures, writesChecked: t.versions.length, eventsChecked, readsChecked };
}

type AckedBefore = (time: number) => { rev: bigint; write: WriteRecord } | undefined;

/** For a time, the acknowledged write with the highest revision that was answered before it. */
function ackIndex(t: Timeline): AckedBefore {
  const acked = t.versions.filter((v) => v.write.outcome === 'ok').sort((a, b) => a.write.end - b.write.end);
  const ends = acked.map((v) => v.write.end);
  const best: { rev: bigint; write: WriteRecord }[] = [];
  for (const v of acked) {
    const prev = best[best.length - 1];
    best.push(prev && prev.rev > v.rev ? prev : { rev: v.rev, write: v.write });
  }
  return (time) => {
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((ends[mid] as number) < time) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? best[lo - 1] : undefined;
  };
}

/** A write that began after another was acknowledged has the larger revision. */
function checkRealTime(t: Timeline, ackedBefore: AckedBefore, fail: (m: string) => void): void {
  for (const v of t.versions) {
    const floor = ackedBefore(v.write.start);
    if (floor && floor.rev >= v.rev) fail(`real-time order: write #${v.write.id} (${describe(v.write)}) at ${v.rev} began after write #${floor.write.id} was acknowledged at ${floor.rev}`);
  }
}

/** A 409 or 404 is right only if the state it objects to held at some moment of the request. */
function checkRejections(writes: readonly WriteRecord[], t: Timeline, ackedBefore: AckedBefore, fail: (m: string) => void): void {
  for (const w of writes) {
    if (w.outcome !== 'rejected') continue;
    const floor = ackedBefore(w.start);
    if (!floor) continue;
    const chain = t.byKey.get(w.key) ?? [];
    const cur = versionAt(chain, floor.rev);
    const next = cur ? chain.find((x) => x.rev > cur.rev) : chain[0];
    if (next && next.write.start <= w.end) continue;
    const present = cur?.after;
    const heldThroughout =
      w.kind === 'create'
        ? w.status === 409 && !present
        : w.status === 404
          ? Boolean(present)
          : Boolean(present && present.rv === w.precondition?.rv && (w.precondition.uid === undefined || w.precondition.uid === present.uid));
    if (heldThroughout) fail(`write #${w.id} (${describe(w)}) answered ${w.status} ${w.detail ?? ''}, but ${w.key} was ${show(present)} for the whole request`);
  }
}

/** Checks one watcher's stream; returns how many events it checked. */
function checkWatcher(w: WatcherRecord, t: Timeline, fail: (m: string) => void): number {
  let last: bigint | undefined;
  let checked = 0;
  let expectRelist = true;
  const missing = (from: bigint, to: bigint, inclusive: boolean): Version[] => t.versions.filter((v) => v.rev > from && (inclusive ? v.rev <= to : v.rev < to));
  w.segments.forEach((s, i) => {
    const where = `${w.name} (on ${w.server}) segment ${i}`;
    if (s.list) {
      const rv = BigInt(s.list.rv);
      if (last !== undefined && rv < last) fail(`${where}: relist at ${rv} went back before ${last}, already seen`);
      compareState(`${where}: ${i === 0 ? 'list' : 'relist'} at ${rv}`, s.list.items, stateAt(t, rv), fail);
      last = rv;
    } else if (expectRelist || last === undefined) {
      fail(`${where}: watch resumed from ${s.fromRv} without the relist its 410 demands`);
      return;
    } else if (BigInt(s.fromRv) !== last) {
      fail(`${where}: watch resumed from ${s.fromRv}, not from the last resourceVersion seen (${last})`);
    }
    expectRelist = false;
    for (const e of s.events) {
      const rev = BigInt(e.rv);
      const prev = last as bigint;
      if (e.type === 'BOOKMARK') {
        if (rev < prev) fail(`${where}: BOOKMARK at ${rev} after ${prev}`);
        for (const m of missing(prev, rev, true)) fail(`${where}: gap: write #${m.write.id} (${describe(m.write)}) at ${m.rev} never sent before BOOKMARK ${rev}`);
        if (rev > prev) last = rev;
        continue;
      }
      checked++;
      if (rev <= prev) {
        fail(`${where}: ${rev === prev ? 'duplicate' : 'out of order'} ${e.type} of ${e.key} at ${rev} after ${prev}`);
        continue;
      }
      for (const m of missing(prev, rev, false)) fail(`${where}: gap: write #${m.write.id} (${describe(m.write)}) at ${m.rev} never sent between ${prev} and ${e.type} ${e.key} at ${rev}`);
      last = rev;
      const v = t.byRev.get(rev);
      if (!v) continue; // no write explains it: buildTimeline reported it
      const type = v.write.kind === 'create' ? 'ADDED' : v.write.kind === 'delete' ? 'DELETED' : 'MODIFIED';
      const want = v.write.kind === 'delete' ? v.before && { ...v.before, rv: e.rv } : v.after;
      if (v.key !== e.key || type !== e.type) fail(`${where}: ${e.type} ${e.key} at ${rev}, but write #${v.write.id} there was ${describe(v.write)} (${type})`);
      else if (!e.object || !want || !sameObject(e.object, want)) fail(`${where}: ${e.type} ${e.key} at ${rev} carried ${show(e.object)}, the replay has ${show(want)}`);
    }
    if (s.end === 'expired') expectRelist = true;
  });
  if (last === undefined || last < t.maxRev) {
    const lost = missing(last ?? 0n, t.maxRev, true);
    fail(`${w.name} (on ${w.server}) ended at ${last ?? 'nothing'}, before the last write at ${t.maxRev}: ${lost.length} writes never sent (first: ${lost[0] ? `#${lost[0].write.id} at ${lost[0].rev}` : '-'})`);
  }
  return checked;
}

/** Reports every key whose object differs between what was read and what the replay has. */
function compareState(what: string, got: Readonly<Record<string, ObjectState>>, want: ReadonlyMap<string, ObjectState>, fail: (m: string) => void): void {
  const diffs: string[] = [];
  for (const [key, w] of want) {
    const g = got[key];
    if (!g || !sameObject(g, w)) diffs.push(`${key}: got ${show(g)}, want ${show(w)}`);
  }
  for (const key of Object.keys(got)) if (!want.has(key)) diffs.push(`${key}: got ${show(got[key])}, want absent`);
  if (diffs.length > 0) fail(`${what} differs from the replay: ${diffs.slice(0, 4).join('; ')}${diffs.length > 4 ? `; and ${diffs.length - 4} more` : ''}`);
}
