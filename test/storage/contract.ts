/**
 * The storage contract: the semantics every Storage implementation must have, run against each
 * (the etcd3 store and the watch cache over it). Each test gets a fresh store under its own key prefix.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta/types.js';
import { isStorageError } from '../../internal/storage/errors.js';
import type { ListOptions, SelectionPredicate, Storage, StorageWatchEvent } from '../../internal/storage/interface.js';

/** What a contract run needs from the implementation under test. */
export interface ContractHarness {
  /** A fresh, empty store (its own prefix), ready to serve. */
  newStore(): Storage | Promise<Storage>;
  /** A fresh store whose watches send bookmarks every bookmarkIntervalMs. */
  newStoreWithBookmarks(bookmarkIntervalMs: number): Storage | Promise<Storage>;
  /** Compacts the whole etcd up to the store's current revision. */
  compact(store: Storage): Promise<void>;
  /**
   * The store serves watches from its own window of events, which compaction of etcd does not
   * shrink (the watch cache: a watch older than its window is Expired, tested on its own).
   */
  readonly windowOutlivesCompaction?: boolean;
}

const everything: SelectionPredicate = { everything: true, matches: () => true };

function cm(name: string, data: Record<string, string> = {}, labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', uid: `uid-${name}`, ...(labels ? { labels } : {}) }, data };
}

function listOpts(extra: Partial<ListOptions> = {}): ListOptions {
  return { resourceVersion: '', resourceVersionMatch: '', predicate: everything, recursive: true, ...extra };
}

function byLabel(key: string, value: string, limit?: number, continueToken?: string): SelectionPredicate {
  return {
    everything: false,
    matches: (o) => o.metadata.labels?.[key] === value,
    ...(limit ? { limit } : {}),
    ...(continueToken ? { continueToken } : {}),
  };
}

/** Up to n events from w, fewer if timeoutMs passes first. */
export async function nextEvents(w: AsyncIterable<StorageWatchEvent>, n: number, timeoutMs = 5000): Promise<StorageWatchEvent[]> {
  const out: StorageWatchEvent[] = [];
  const it = w[Symbol.asyncIterator]();
  const deadline = Date.now() + timeoutMs;
  while (out.length < n) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    const r = await Promise.race([it.next(), new Promise<'timeout'>((res) => setTimeout(() => res('timeout'), remaining))]);
    if (r === 'timeout' || r.done) break;
    out.push(r.value);
  }
  return out;
}

function names(items: KubeObject[]): string[] {
  return items.map((i) => i.metadata.name ?? '');
}

async function expectStorageError(p: Promise<unknown>, code: string): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    assert.ok(isStorageError(err), `expected StorageError ${code}, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail(`expected StorageError ${code}, got success`);
}

/** Registers the contract tests for one implementation. */
export function storageContract(name: string, h: ContractHarness): void {
  describe(`storage contract: ${name}`, () => {
    it('create stores the object with a resourceVersion and refuses an existing key', async () => {
      const s = await h.newStore();
      const created = await s.create('/configmaps/ns/a', cm('a', { k: 'v' }));
      assert.match(created.metadata.resourceVersion ?? '', /^[1-9][0-9]*$/);
      const got = await s.get('/configmaps/ns/a', { resourceVersion: '' });
      assert.deepEqual(got, created);
      await expectStorageError(s.create('/configmaps/ns/a', cm('a')), 'KeyExists');
    });

    it('create refuses an object that carries a resourceVersion', async () => {
      const s = await h.newStore();
      const obj = cm('rv');
      obj.metadata.resourceVersion = '5';
      await expectStorageError(s.create('/configmaps/ns/rv', obj), 'InvalidArgument');
    });

    it('get: NotFound for a missing key, TooLargeResourceVersion for a future revision', async () => {
      const s = await h.newStore();
      await expectStorageError(s.get('/configmaps/ns/missing', { resourceVersion: '' }), 'NotFound');
      const created = await s.create('/configmaps/ns/b', cm('b'));
      const future = (BigInt(created.metadata.resourceVersion ?? '0') + 1000n).toString();
      const err = await expectStorageError(s.get('/configmaps/ns/b', { resourceVersion: future }), 'TooLargeResourceVersion');
      assert.match((err as Error).message, /Too large resource version/);
      const ok = await s.get('/configmaps/ns/b', { resourceVersion: created.metadata.resourceVersion ?? '' });
      assert.equal(ok.metadata.name, 'b');
      await expectStorageError(s.get('/configmaps/ns/b', { resourceVersion: 'abc' }), 'InvalidArgument');
    });

    it('guaranteedUpdate writes, skips no-op writes, and checks preconditions', async () => {
      const s = await h.newStore();
      const created = await s.create('/configmaps/ns/u', cm('u', { n: '0' }));
      const updated = await s.guaranteedUpdate('/configmaps/ns/u', {
        ignoreNotFound: false,
        tryUpdate: (cur) => ({ ...cur, data: { n: '1' } }),
      });
      assert.notEqual(updated.metadata.resourceVersion, created.metadata.resourceVersion);
      assert.deepEqual(updated.data, { n: '1' });
      const same = await s.guaranteedUpdate('/configmaps/ns/u', { ignoreNotFound: false, tryUpdate: (cur) => cur });
      assert.equal(same.metadata.resourceVersion, updated.metadata.resourceVersion);
      await expectStorageError(
        s.guaranteedUpdate('/configmaps/ns/u', { ignoreNotFound: false, preconditions: { uid: 'other' }, tryUpdate: (c) => c }),
        'InvalidObj',
      );
      await expectStorageError(
        s.guaranteedUpdate('/configmaps/ns/nope', { ignoreNotFound: false, tryUpdate: (c) => c }),
        'NotFound',
      );
      const made = await s.guaranteedUpdate('/configmaps/ns/new', { ignoreNotFound: true, tryUpdate: () => cm('new') });
      assert.equal(made.metadata.name, 'new');
    });

    it('guaranteedUpdate retries on conflict so concurrent increments are never lost', async () => {
      const s = await h.newStore();
      await s.create('/configmaps/ns/counter', cm('counter', { n: '0' }));
      await Promise.all(
        Array.from({ length: 32 }, () =>
          s.guaranteedUpdate('/configmaps/ns/counter', {
            ignoreNotFound: false,
            tryUpdate: (cur) => ({ ...cur, data: { n: String(Number((cur.data as Record<string, string>).n) + 1) } }),
          }),
        ),
      );
      const got = await s.get('/configmaps/ns/counter', { resourceVersion: '' });
      assert.deepEqual(got.data, { n: '32' });
    });

    it('guaranteedUpdate with a stale cached copy reads the current object', async () => {
      const s = await h.newStore();
      const v1 = await s.create('/configmaps/ns/c', cm('c', { n: '1' }));
      await s.guaranteedUpdate('/configmaps/ns/c', { ignoreNotFound: false, tryUpdate: (cur) => ({ ...cur, data: { n: '2' } }) });
      const seen: string[] = [];
      await s.guaranteedUpdate('/configmaps/ns/c', {
        ignoreNotFound: false,
        cachedExisting: v1,
        tryUpdate: (cur) => {
          seen.push((cur.data as Record<string, string>).n ?? '');
          return { ...cur, data: { n: '3' } };
        },
      });
      assert.deepEqual(seen, ['1', '2']);
    });

    it('delete checks preconditions and returns the last state at the deletion revision', async () => {
      const s = await h.newStore();
      const created = await s.create('/configmaps/ns/d', cm('d'));
      await expectStorageError(s.delete('/configmaps/ns/d', { preconditions: { uid: 'wrong' } }), 'InvalidObj');
      await expectStorageError(s.delete('/configmaps/ns/d', { preconditions: { resourceVersion: '1' } }), 'InvalidObj');
      await assert.rejects(
        s.delete('/configmaps/ns/d', {
          validateDeletion: () => {
            throw new Error('refused');
          },
        }),
        /refused/,
      );
      const deleted = await s.delete('/configmaps/ns/d', { preconditions: { uid: 'uid-d' } });
      assert.equal(deleted.metadata.name, 'd');
      assert.ok(BigInt(deleted.metadata.resourceVersion ?? '0') > BigInt(created.metadata.resourceVersion ?? '0'));
      await expectStorageError(s.get('/configmaps/ns/d', { resourceVersion: '' }), 'NotFound');
      await expectStorageError(s.delete('/configmaps/ns/d', {}), 'NotFound');
    });

    it('getList: all items at one revision, scoped by prefix, and single-key lists', async () => {
      const s = await h.newStore();
      for (const n of ['a', 'b', 'c']) await s.create(`/configmaps/ns/${n}`, cm(n));
      await s.create('/configmaps/ns2/x', cm('x'));
      await s.create('/configmaps/nsx/y', cm('y'));
      const all = await s.getList('/configmaps', listOpts());
      assert.deepEqual(names(all.items), ['a', 'b', 'c', 'x', 'y']);
      const ns = await s.getList('/configmaps/ns', listOpts());
      assert.deepEqual(names(ns.items), ['a', 'b', 'c']);
      assert.ok(BigInt(ns.resourceVersion) >= BigInt(ns.items[2]?.metadata.resourceVersion ?? '0'));
      assert.equal(ns.continueToken, undefined);
      const one = await s.getList('/configmaps/ns/b', listOpts({ recursive: false }));
      assert.deepEqual(names(one.items), ['b']);
    });

    it('getList pages over one snapshot with continue tokens and remainingItemCount', async () => {
      const s = await h.newStore();
      for (const n of ['a', 'b', 'c', 'd', 'e']) await s.create(`/configmaps/ns/${n}`, cm(n, { v: '1' }));
      const p1 = await s.getList('/configmaps/ns', listOpts({ predicate: { ...everything, limit: 2 } }));
      assert.deepEqual(names(p1.items), ['a', 'b']);
      assert.equal(p1.remainingItemCount, 3);
      assert.ok(p1.continueToken);
      // Changes after the first page must not show in later pages.
      await s.guaranteedUpdate('/configmaps/ns/c', { ignoreNotFound: false, tryUpdate: (c) => ({ ...c, data: { v: '2' } }) });
      await s.delete('/configmaps/ns/d', {});
      await s.create('/configmaps/ns/f', cm('f'));
      const p2 = await s.getList('/configmaps/ns', listOpts({ predicate: { ...everything, limit: 2, continueToken: p1.continueToken } }));
      assert.deepEqual(names(p2.items), ['c', 'd']);
      assert.deepEqual(p2.items[0]?.data, { v: '1' });
      assert.equal(p2.resourceVersion, p1.resourceVersion);
      assert.equal(p2.remainingItemCount, 1);
      const p3 = await s.getList('/configmaps/ns', listOpts({ predicate: { ...everything, limit: 2, continueToken: p2.continueToken } }));
      assert.deepEqual(names(p3.items), ['e']);
      assert.equal(p3.continueToken, undefined);
      assert.equal(p3.remainingItemCount, undefined);
    });

    it('getList with a selector fills each page and gives no remainingItemCount', async () => {
      const s = await h.newStore();
      for (let i = 0; i < 9; i++) await s.create(`/configmaps/ns/o${i}`, cm(`o${i}`, {}, { even: String(i % 2 === 0) }));
      const p1 = await s.getList('/configmaps/ns', listOpts({ predicate: byLabel('even', 'true', 2) }));
      assert.deepEqual(names(p1.items), ['o0', 'o2']);
      assert.equal(p1.remainingItemCount, undefined);
      const p2 = await s.getList('/configmaps/ns', listOpts({ predicate: byLabel('even', 'true', 2, p1.continueToken) }));
      assert.deepEqual(names(p2.items), ['o4', 'o6']);
      const p3 = await s.getList('/configmaps/ns', listOpts({ predicate: byLabel('even', 'true', 2, p2.continueToken) }));
      assert.deepEqual(names(p3.items), ['o8']);
      assert.equal(p3.continueToken, undefined);
    });

    it('getList resourceVersion rules: Exact reads the past, NotOlderThan refuses the future', async () => {
      const s = await h.newStore();
      const a = await s.create('/configmaps/ns/a', cm('a', { v: '1' }));
      await s.guaranteedUpdate('/configmaps/ns/a', { ignoreNotFound: false, tryUpdate: (c) => ({ ...c, data: { v: '2' } }) });
      await s.create('/configmaps/ns/b', cm('b'));
      const rv = a.metadata.resourceVersion ?? '';
      const exact = await s.getList('/configmaps/ns', listOpts({ resourceVersion: rv, resourceVersionMatch: 'Exact' }));
      assert.deepEqual(names(exact.items), ['a']);
      assert.deepEqual(exact.items[0]?.data, { v: '1' });
      assert.equal(exact.resourceVersion, rv);
      // Legacy: an RV with a limit is an exact read.
      const legacy = await s.getList('/configmaps/ns', listOpts({ resourceVersion: rv, predicate: { ...everything, limit: 10 } }));
      assert.deepEqual(names(legacy.items), ['a']);
      const notOlder = await s.getList('/configmaps/ns', listOpts({ resourceVersion: rv, resourceVersionMatch: 'NotOlderThan' }));
      assert.deepEqual(names(notOlder.items), ['a', 'b']);
      const current = BigInt(await s.currentRevision());
      const future = (current + 100n).toString();
      await expectStorageError(s.getList('/configmaps/ns', listOpts({ resourceVersion: future, resourceVersionMatch: 'NotOlderThan' })), 'TooLargeResourceVersion');
      await expectStorageError(s.getList('/configmaps/ns', listOpts({ resourceVersion: future, resourceVersionMatch: 'Exact' })), 'TooLargeResourceVersion');
      await expectStorageError(s.getList('/configmaps/ns', listOpts({ resourceVersion: future })), 'TooLargeResourceVersion');
    });

    it('getList: invalid continue tokens are InvalidArgument', async () => {
      const s = await h.newStore();
      await expectStorageError(s.getList('/configmaps/ns', listOpts({ predicate: { ...everything, limit: 1, continueToken: 'garbage!' } })), 'InvalidArgument');
      const bad = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' })).toString('base64url');
      await expectStorageError(s.getList('/configmaps/ns', listOpts({ predicate: { ...everything, limit: 1, continueToken: bad } })), 'InvalidArgument');
    });

    it('compaction: Exact lists and continue tokens at compacted revisions are Expired', async () => {
      const s = await h.newStore();
      for (const n of ['a', 'b', 'c']) await s.create(`/configmaps/ns/${n}`, cm(n));
      const p1 = await s.getList('/configmaps/ns', listOpts({ predicate: { ...everything, limit: 1 } }));
      await s.create('/configmaps/ns/d', cm('d'));
      await h.compact(s);
      const err = (await expectStorageError(
        s.getList('/configmaps/ns', listOpts({ predicate: { ...everything, limit: 1, continueToken: p1.continueToken } })),
        'Expired',
      )) as { inconsistentContinue?: string };
      assert.ok(err.inconsistentContinue, 'an inconsistent continue token is offered');
      const rest = await s.getList('/configmaps/ns', listOpts({ predicate: { ...everything, limit: 10, continueToken: err.inconsistentContinue } }));
      assert.deepEqual(names(rest.items), ['b', 'c', 'd']);
      await expectStorageError(
        s.getList('/configmaps/ns', listOpts({ resourceVersion: p1.resourceVersion, resourceVersionMatch: 'Exact' })),
        'Expired',
      );
    });

    it('watch from a revision delivers every later change with the right types', async () => {
      const s = await h.newStore();
      const a = await s.create('/configmaps/ns/a', cm('a', { v: '1' }));
      const w = await s.watch('/configmaps/ns', listOpts({ resourceVersion: a.metadata.resourceVersion ?? '' }));
      await s.guaranteedUpdate('/configmaps/ns/a', { ignoreNotFound: false, tryUpdate: (c) => ({ ...c, data: { v: '2' } }) });
      const b = await s.create('/configmaps/ns/b', cm('b'));
      const del = await s.delete('/configmaps/ns/a', {});
      await s.create('/configmaps/other/z', cm('z'));
      const evs = await nextEvents(w, 3);
      w.stop();
      assert.deepEqual(
        evs.map((e) => [e.type, e.type === 'ERROR' ? '' : e.object.metadata.name]),
        [['MODIFIED', 'a'], ['ADDED', 'b'], ['DELETED', 'a']],
      );
      const [mod, add, gone] = evs as Array<{ object: KubeObject }>;
      assert.deepEqual(mod?.object.data, { v: '2' });
      assert.equal(add?.object.metadata.resourceVersion, b.metadata.resourceVersion);
      assert.equal(gone?.object.metadata.resourceVersion, del.metadata.resourceVersion);
      assert.deepEqual(gone?.object.data, { v: '2' });
    });

    it('watch from "" or "0" begins with the current state as ADDED events', async () => {
      const s = await h.newStore();
      await s.create('/configmaps/ns/a', cm('a'));
      await s.create('/configmaps/ns/b', cm('b'));
      for (const rv of ['', '0']) {
        const w = await s.watch('/configmaps/ns', listOpts({ resourceVersion: rv }));
        const evs = await nextEvents(w, 2);
        w.stop();
        assert.deepEqual(evs.map((e) => e.type), ['ADDED', 'ADDED']);
      }
    });

    it('sendInitialEvents ends the initial state with an annotated bookmark', async () => {
      const s = await h.newStore();
      await s.create('/configmaps/ns/a', cm('a'));
      const w = await s.watch('/configmaps/ns', listOpts({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true }));
      await s.create('/configmaps/ns/b', cm('b'));
      const evs = await nextEvents(w, 3);
      w.stop();
      assert.deepEqual(evs.map((e) => e.type), ['ADDED', 'BOOKMARK', 'ADDED']);
      const bm = evs[1] as { object: KubeObject };
      assert.equal(bm.object.metadata.annotations?.['k8s.io/initial-events-end'], 'true');
      assert.match(bm.object.metadata.resourceVersion ?? '', /^[0-9]+$/);
    });

    it('watch with a selector: leaving it is DELETED, entering it is ADDED', async () => {
      const s = await h.newStore();
      const a = await s.create('/configmaps/ns/a', cm('a', {}, { app: 'web' }));
      const w = await s.watch('/configmaps/ns', listOpts({ resourceVersion: a.metadata.resourceVersion ?? '', predicate: byLabel('app', 'web') }));
      const setLabel = (v: string) => (c: KubeObject): KubeObject => ({ ...c, metadata: { ...c.metadata, labels: { app: v } } });
      await s.guaranteedUpdate('/configmaps/ns/a', { ignoreNotFound: false, tryUpdate: setLabel('db') });
      await s.guaranteedUpdate('/configmaps/ns/a', { ignoreNotFound: false, tryUpdate: setLabel('cache') });
      await s.guaranteedUpdate('/configmaps/ns/a', { ignoreNotFound: false, tryUpdate: setLabel('web') });
      await s.create('/configmaps/ns/b', cm('b', {}, { app: 'db' }));
      await s.delete('/configmaps/ns/a', {});
      const evs = await nextEvents(w, 3);
      w.stop();
      assert.deepEqual(evs.map((e) => e.type), ['DELETED', 'ADDED', 'DELETED']);
      const first = evs[0] as { object: KubeObject };
      assert.equal(first.object.metadata.labels?.app, 'db', 'DELETED carries the new state');
    });

    it('watch from a compacted revision is Expired before any event; a future one is TooLarge', async () => {
      const s = await h.newStore();
      const a = await s.create('/configmaps/ns/a', cm('a'));
      await s.create('/configmaps/ns/b', cm('b'));
      await s.create('/configmaps/ns/c', cm('c'));
      await h.compact(s);
      if (!h.windowOutlivesCompaction) {
        await expectStorageError(s.watch('/configmaps/ns', listOpts({ resourceVersion: a.metadata.resourceVersion ?? '' })), 'Expired');
      }
      const future = (BigInt(await s.currentRevision()) + 50n).toString();
      await expectStorageError(s.watch('/configmaps/ns', listOpts({ resourceVersion: future })), 'TooLargeResourceVersion');
      // Watching from the current revision still works after compaction.
      const w = await s.watch('/configmaps/ns', listOpts({ resourceVersion: await s.currentRevision() }));
      await s.create('/configmaps/ns/d', cm('d'));
      const evs = await nextEvents(w, 1);
      w.stop();
      assert.deepEqual(evs.map((e) => e.type), ['ADDED']);
    });

    it('allowWatchBookmarks: periodic bookmarks carry a resourceVersion every earlier event is below', async () => {
      const s = await h.newStoreWithBookmarks(200);
      const a = await s.create('/configmaps/ns/a', cm('a'));
      const w = await s.watch('/configmaps/ns', listOpts({ resourceVersion: a.metadata.resourceVersion ?? '', allowWatchBookmarks: true }));
      const b = await s.create('/configmaps/ns/b', cm('b'));
      // A bookmark may come before b's ADDED (on a busy machine the timer can beat the event):
      // what holds is that every event before a bookmark is at or below its resourceVersion and
      // every event after it above.
      const evs = await nextEvents(w, 5, 3000);
      w.stop();
      const rv = (e: StorageWatchEvent): bigint => BigInt((e as { object: KubeObject }).object.metadata.resourceVersion ?? '0');
      assert.ok(evs.some((e) => e.type === 'ADDED' && rv(e) === BigInt(b.metadata.resourceVersion ?? '0')), 'b is ADDED');
      const bookmarks = evs.filter((e) => e.type === 'BOOKMARK');
      assert.ok(bookmarks.length >= 1, 'a bookmark arrives');
      for (const [i, e] of evs.entries()) {
        if (e.type !== 'BOOKMARK') continue;
        for (const before of evs.slice(0, i)) if (before.type !== 'BOOKMARK') assert.ok(rv(before) <= rv(e), 'an event before a bookmark is at or below it');
        for (const later of evs.slice(i + 1)) if (later.type !== 'BOOKMARK') assert.ok(rv(later) > rv(e), 'an event after a bookmark is above it');
      }
      const quiet = await s.watch('/configmaps/ns', listOpts({ resourceVersion: a.metadata.resourceVersion ?? '' }));
      const none = await nextEvents(quiet, 2, 700);
      quiet.stop();
      assert.deepEqual(none.map((e) => e.type), ['ADDED'], 'no bookmarks unless asked');
    });

    it('stopping a watch ends its iterator', async () => {
      const s = await h.newStore();
      const w = await s.watch('/configmaps/ns', listOpts({ resourceVersion: await s.currentRevision() }));
      setTimeout(() => w.stop(), 50);
      const evs = await nextEvents(w, 1, 3000);
      assert.deepEqual(evs, []);
    });
  });
}
