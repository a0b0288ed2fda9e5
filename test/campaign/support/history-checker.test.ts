/**
 * The linearizability checker judged on histories whose defects are known: a good history passes,
 * and a lost write, a duplicate event, a gap, out-of-order revisions, a stale relist, a stale read,
 * a reused resourceVersion, a real-time inversion, a rejected write that changed the state, a wrong
 * 409 and an unknown write applied twice are each caught.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkHistory } from './history-checker.js';
import type { EventRecord, History, ObjectState, WriteRecord } from './history-types.js';

const U1 = 'uid-a-1111';
const U2 = 'uid-b-2222';
const obj = (uid: string, rv: number, data: Record<string, string>): ObjectState => ({ uid, rv: String(rv), data });
const write = (w: Omit<WriteRecord, 'client' | 'server' | 'status' | 'outcome'> & Partial<WriteRecord>): WriteRecord => ({
  client: 0,
  server: 'a',
  status: w.outcome === 'rejected' ? 409 : 200,
  outcome: 'ok',
  ...w,
});
const ev = (type: EventRecord['type'], key: string, o: ObjectState): EventRecord => ({ type, key, rv: o.rv, object: o });

/** Creates a, updates it, creates b, deletes a, patches b; a stale update of b is refused; one watcher saw it all. */
function goodHistory(): History {
  const h: History = {
    writes: [
      write({ id: 1, kind: 'create', key: 'a', start: 0, end: 1, data: { v: '1' }, result: obj(U1, 10, { v: '1' }) }),
      write({ id: 2, kind: 'update', key: 'a', start: 2, end: 3, precondition: { rv: '10' }, data: { v: '2' }, result: obj(U1, 11, { v: '2' }) }),
      write({ id: 3, kind: 'create', key: 'b', start: 4, end: 5, data: { v: '3' }, result: obj(U2, 12, { v: '3' }) }),
      write({ id: 4, kind: 'delete', key: 'a', start: 6, end: 7, precondition: { rv: '11', uid: U1 } }),
      write({ id: 5, kind: 'patch', key: 'b', start: 8, end: 9, precondition: { rv: '12' }, data: { v: '5', p: 'x' }, result: obj(U2, 14, { v: '5', p: 'x' }) }),
      write({ id: 6, kind: 'update', key: 'b', start: 10, end: 11, precondition: { rv: '12' }, data: { v: '6' }, outcome: 'rejected', status: 409 }),
    ],
    reads: [{ id: 1, quorum: true, client: 1, server: 'b', kind: 'get', key: 'a', start: 4, end: 5, status: 200, object: obj(U1, 11, { v: '2' }) }],
    watchers: [
      {
        name: 'w0',
        server: 'a',
        segments: [
          {
            fromRv: '9',
            list: { rv: '9', items: {} },
            events: [
              ev('ADDED', 'a', obj(U1, 10, { v: '1' })),
              ev('MODIFIED', 'a', obj(U1, 11, { v: '2' })),
              ev('ADDED', 'b', obj(U2, 12, { v: '3' })),
              ev('DELETED', 'a', obj(U1, 13, { v: '2' })),
              ev('MODIFIED', 'b', obj(U2, 14, { v: '5', p: 'x' })),
            ],
            end: 'closed',
          },
        ],
      },
    ],
    finals: [{ source: 'etcd', items: { b: obj(U2, 14, { v: '5', p: 'x' }) } }],
  };
  // A second watcher (as the etcd witness is) with the same stream, so that mutating w0 alone leaves the writes evidenced.
  h.watchers.push({ ...structuredClone(h.watchers[0]!), name: 'witness', server: 'etcd' });
  return h;
}

function failuresOf(mutate: (h: History) => void): string[] {
  const h = goodHistory();
  mutate(h);
  return checkHistory(h).failures;
}

function assertCaught(mutate: (h: History) => void, pattern: RegExp): void {
  const failures = failuresOf(mutate);
  assert.ok(failures.some((f) => pattern.test(f)), `expected a failure matching ${pattern}, got ${JSON.stringify(failures, null, 1)}`);
}

const events = (h: History): EventRecord[] => (h.watchers[0]?.segments[0]?.events ?? []) as EventRecord[];

describe('history checker', () => {
  it('passes a good history and counts what it checked', () => {
    const v = checkHistory(goodHistory());
    assert.deepEqual(v.failures, []);
    assert.equal(v.writesChecked, 5);
    assert.equal(v.eventsChecked, 10);
    assert.equal(v.readsChecked, 1);
  });

  it('catches a lost write: the final state misses the acknowledged patch', () => {
    assertCaught((h) => {
      h.finals[0] = { source: 'etcd', items: { b: obj(U2, 12, { v: '3' }) } };
    }, /final state from etcd at 14 differs from the replay: b: got \{rv 12/);
  });

  it('catches a lost write: no watcher event for it', () => {
    assertCaught((h) => void events(h).pop(), /w0 \(on a\) ended at 13, before the last write at 14/);
  });

  it('catches a duplicate event', () => {
    assertCaught((h) => void events(h).splice(2, 0, ev('MODIFIED', 'a', obj(U1, 11, { v: '2' }))), /duplicate MODIFIED of a at 11 after 11/);
  });

  it('catches a gap', () => {
    assertCaught((h) => void events(h).splice(2, 1), /gap: write #3 \(create b.*at 12 never sent between 11 and DELETED a at 13/);
  });

  it('catches out-of-order revisions', () => {
    assertCaught((h) => {
      const e = events(h);
      [e[2], e[3]] = [e[3] as EventRecord, e[2] as EventRecord];
    }, /out of order ADDED of b at 12 after 13/);
  });

  it('catches a stale relist after a 410', () => {
    assertCaught((h) => {
      const w = h.watchers[0];
      if (!w) return;
      const seg = w.segments[0];
      if (!seg) return;
      const rest = seg.events.splice(2);
      seg.end = 'expired';
      w.segments.push({ fromRv: '13', list: { rv: '13', items: { a: obj(U1, 11, { v: '2' }), b: obj(U2, 12, { v: '3' }) } }, events: rest.slice(2), end: 'closed' });
    }, /segment 1: relist at 13 differs from the replay: a: got \{rv 11.*want absent/);
  });

  it('accepts a relist that matches, and demands one after a 410', () => {
    const relist = (h: History, withList: boolean): void => {
      const w = h.watchers[0];
      const seg = w?.segments[0];
      if (!w || !seg) return;
      const rest = seg.events.splice(2);
      seg.end = 'expired';
      w.segments.push({ fromRv: '13', ...(withList ? { list: { rv: '13', items: { b: obj(U2, 12, { v: '3' }) } } } : {}), events: rest.slice(2), end: 'closed' });
    };
    assert.deepEqual(failuresOf((h) => relist(h, true)), []);
    assertCaught((h) => relist(h, false), /resumed from 13 without the relist its 410 demands/);
  });

  it('catches an event whose content differs from the write', () => {
    assertCaught((h) => void (events(h)[4] = ev('MODIFIED', 'b', obj(U2, 14, { v: '5' }))), /MODIFIED b at 14 carried .*"v":"5"\}\}, the replay has .*"p":"x"/);
  });

  it('catches a stale quorum read', () => {
    assertCaught((h) => void (h.reads[0] = { ...h.reads[0]!, object: obj(U1, 10, { v: '1' }) }), /stale read #1 of a on b: returned 10, but write #2 replaced it at 11/);
  });

  it('lets a read from the watch cache be stale, but not differ from the state at its resourceVersion', () => {
    assert.deepEqual(failuresOf((h) => void h.reads.push({ id: 2, quorum: false, client: 1, server: 'a', kind: 'list', start: 10, end: 11, status: 200, listRv: '11', items: { a: obj(U1, 11, { v: '2' }) } })), []);
    assertCaught(
      (h) => void h.reads.push({ id: 2, quorum: false, client: 1, server: 'a', kind: 'list', start: 10, end: 11, status: 200, listRv: '12', items: { a: obj(U1, 11, { v: '2' }) } }),
      /list #2 on a at 12 differs from the replay: b: got absent, want \{rv 12/,
    );
  });

  it('catches one resourceVersion answered for two writes', () => {
    assertCaught((h) => void (h.writes[2] = { ...h.writes[2]!, result: obj(U2, 11, { v: '3' }) }), /resourceVersion 11 answered for two writes: #2 .* and #3/);
  });

  it('catches revisions against real-time order', () => {
    assertCaught((h) => void (h.writes[2] = { ...h.writes[2]!, start: 7.5, end: 7.6 }), /real-time order: write #3 .* at 12 began after write #4 was acknowledged at 13/);
  });

  it('catches a rejected write that changed the state', () => {
    assertCaught((h) => void (h.finals[0] = { source: 'etcd', items: { b: obj(U2, 15, { v: '6' }) } }), /carries the value of write #6 .* which was rejected/);
  });

  it('catches a 409 while the precondition held for the whole request', () => {
    assertCaught((h) => void (h.writes[5] = { ...h.writes[5]!, precondition: { rv: '14' } }), /write #6 .* answered 409 .*but b was \{rv 14.* for the whole request/);
  });

  it('accepts an unknown write either applied once or not at all, never twice', () => {
    const unknown = write({ id: 7, kind: 'update', key: 'b', start: 12, end: 13, precondition: { rv: '14' }, data: { v: '7' }, outcome: 'unknown', status: 0 });
    const applied = obj(U2, 15, { v: '7' });
    assert.deepEqual(failuresOf((h) => void h.writes.push(unknown)), [], 'not applied');
    assert.deepEqual(
      failuresOf((h) => {
        h.writes.push(unknown);
        for (const w of h.watchers) w.segments[0]?.events.push(ev('MODIFIED', 'b', applied));
        h.finals[0] = { source: 'etcd', items: { b: applied } };
      }),
      [],
      'applied once',
    );
    assertCaught((h) => {
      h.writes.push(unknown);
      for (const w of h.watchers) w.segments[0]?.events.push(ev('MODIFIED', 'b', applied), ev('MODIFIED', 'b', obj(U2, 16, { v: '7' })));
      h.finals[0] = { source: 'etcd', items: { b: obj(U2, 16, { v: '7' }) } };
    }, /write #7 .* applied twice: at 15 and at 16/);
  });

  it('catches an acknowledged delete that nothing shows', () => {
    assertCaught((h) => {
      for (const w of h.watchers) w.segments[0]?.events.splice(3, 1);
    }, /write #4 \(delete a .*was acknowledged, but no list, event or final state shows it/);
  });

  it('catches a write applied over a version it was not conditional on', () => {
    assertCaught((h) => void (h.writes[4] = { ...h.writes[4]!, precondition: { rv: '10' } }), /write #5 .* was conditional on resourceVersion 10 but applied over version 12/);
  });
});
