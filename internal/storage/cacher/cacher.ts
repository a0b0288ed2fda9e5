/**
 * The watch cache of one resource (kube's Cacher): one etcd list and watch keep an in-memory copy
 * of every object under the resource's key prefix, plus a window of recent events. Lists and
 * watches are served from it; writes go to the underlying store and come back through the watch.
 *
 * - get: resourceVersion "" reads etcd (as kube does); "0" and N read the cache (N once the cache
 *   has reached it).
 * - getList: Exact reads etcd; "0" and NotOlderThan read the cache; "" (most recent) reads the
 *   cache once it is proven current (see ensureFresh), else etcd. limit/continue page over a
 *   snapshot of the cache taken at the first page.
 * - watch: from N replays the window (410 Expired when N is older than the window), "0" and
 *   sendInitialEvents start with the cached state; "" without sendInitialEvents goes to etcd,
 *   as kube's cacher delegates it.
 *
 * Every object is held as its JSON bytes (entries.ts), encoded once and written as-is to every
 * client that reads the stored version as JSON.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { decodeContinue } from '../continue-token.js';
import { StorageError } from '../errors.js';
import { parseResourceVersion } from '../etcd3/revision.js';
import { initialEventsEndAnnotation } from '../etcd3/watcher.js';
import type {
  DeleteOptions,
  GetOptions,
  GuaranteedUpdateOptions,
  ListOptions,
  ListResult,
  SelectionPredicate,
  Storage,
  StorageWatch,
  StorageWatchEvent,
  CreateOptions,
} from '../interface.js';
import { CachedWatchEvent, encodeForCache, lowerBound, materialize, type CachedEntry } from './entries.js';
import type { InitTicket } from './init-queue.js';
import { Dispatch, type WindowEvent } from './dispatch.js';
import { lazyList, SnapshotStore, tooLarge, type Snapshot } from './list-results.js';
import { pageOf } from './paging.js';
import { EventWindow } from './window.js';
import { FieldIndex } from './field-index.js';
import { deliver, WatcherSet } from './watcher-set.js';
import { RevisionWaiters } from './revision-waiters.js';
import type { CacheSource, CacherOptions } from './options.js';
import { CacheWatcher, type WatcherHost } from './watcher.js';
import { WriteOffers } from './offers.js';
import { attachEncodedJson } from '../encoded.js';
import { storedValueOfEvent, storedWriteOf } from '../stored-write.js';

export type { CacheSource, CacherMetrics, CacherOptions, IndexedField } from './options.js';

/** What a cache loads before it serves: its entries in key order and the revision they were read at. */
interface InitialState {
  readonly pairs: readonly CachedEntry[];
  readonly resourceVersion: string;
}

const everything: SelectionPredicate = { everything: true, matches: () => true };

/** The watch cache of one resource. */
export class Cacher implements Storage, WatcherHost {
  private readonly source: CacheSource;
  private readonly keyPrefix: string;
  private readonly opts: CacherOptions;

  private entries = new Map<string, CachedEntry>();
  private sortedKeys: string[] = [];
  private readonly index = new FieldIndex();
  /** The revision the cache reflects. */
  private rv = 0;
  private readonly window: EventWindow;
  /** Entries this server's writes made, waiting for their etcd watch events (offers.ts). */
  private readonly offers = new WriteOffers();

  private readonly watcherSet = new WatcherSet();
  private readonly snapshots = new SnapshotStore();
  private readonly waiters = new RevisionWaiters();
  private freshCheck: Promise<{ revision: bigint; count: number; maxModRevision: bigint }> | undefined;

  private isReady = false;
  /** Loads that failed before the cache had its state (a cache that cannot fill is not waited for). */
  private failedLoads = 0;
  private readonly ticket: InitTicket | undefined;
  private readyWaiters: Array<() => void> = [];
  private stopped = false;
  private sourceWatch: StorageWatch | undefined;
  private bookmarkTimer: NodeJS.Timeout | undefined;

  constructor(opts: CacherOptions) {
    this.opts = opts;
    this.source = opts.source;
    this.keyPrefix = opts.keyPrefix.endsWith('/') ? opts.keyPrefix : `${opts.keyPrefix}/`;
    this.window = new EventWindow({ minSize: opts.minWindow ?? 100, maxSize: opts.maxWindow ?? 100 * 1024, freshMs: opts.eventFreshMs ?? 75_000 });
    this.ticket = opts.initQueue?.enqueue(() => void this.run());
    if (!this.ticket) void this.run();
    this.bookmarkTimer = setInterval(() => this.sendBookmarks(), opts.bookmarkIntervalMs ?? 60_000);
    this.bookmarkTimer.unref();
  }

  /** Resolves once the cache has its initial state (tests; reads before that go to etcd). */
  waitReady(): Promise<void> {
    if (this.isReady) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  get ready(): boolean {
    return this.isReady;
  }

  /** Stops the cache: its etcd watch ends and every watcher's stream ends. */
  stop(): void {
    this.stopped = true;
    this.ticket?.done();
    if (this.bookmarkTimer) clearInterval(this.bookmarkTimer);
    this.sourceWatch?.stop();
    this.terminateAll();
  }

  // ---- filling the cache ------------------------------------------------------------------

  private async run(): Promise<void> {
    let backoffMs = 100;
    while (!this.stopped) {
      let loaded = false;
      try {
        // Released once the cache holds it: the entries are the cache's, the page's objects are gone.
        let initial: InitialState | undefined = await this.listInitial();
        if (this.stopped) return;
        const watch = await this.source.watch(this.keyPrefix, {
          resourceVersion: initial.resourceVersion,
          resourceVersionMatch: '',
          predicate: everything,
          recursive: true,
          allowWatchBookmarks: true,
          // An event of a write offered here is never decoded.
          lazyObjects: true,
        });
        if (this.stopped) {
          watch.stop();
          return;
        }
        this.sourceWatch = watch;
        this.replace(initial);
        initial = undefined;
        loaded = true;
        this.ticket?.done();
        backoffMs = 100;
        for await (const ev of watch) {
          if (this.stopped) break;
          if (ev.type === 'ERROR') throw ev.error;
          const stored = ev.key !== undefined ? storedValueOfEvent(ev) : undefined;
          const wait = stored ? this.offers.waitFor(ev.key as string, Number(stored.modRevision)) : undefined;
          if (wait) {
            // This server's write under the key may be about to offer this very event.
            await wait;
            if (this.stopped) break;
          }
          this.apply(ev);
        }
        if (this.stopped) return;
        throw new Error('the etcd watch ended');
      } catch (err) {
        if (this.stopped) return;
        if (!loaded) {
          this.failedLoads++;
          // Its slot goes to the next cache; this one retries outside the queue.
          this.ticket?.done();
        }
        this.opts.log?.(`watch cache ${this.keyPrefix}: ${(err as Error).message}; re-listing`);
        this.sourceWatch?.stop();
        this.sourceWatch = undefined;
        this.reset();
        await new Promise((r) => setTimeout(r, backoffMs).unref());
        backoffMs = Math.min(backoffMs * 2, 5000);
      }
    }
  }

  private makeEntry(key: string, obj: KubeObject): CachedEntry {
    const idx = this.opts.indexedField;
    const rv = Number(obj.metadata.resourceVersion ?? '0');
    return idx ? { key, rv, bytes: encodeForCache(obj), indexValue: idx.valueOf(obj) } : { key, rv, bytes: encodeForCache(obj) };
  }

  /**
   * The resource's state for the cache: entries read in pages at one revision (as kube's reflector
   * pages its list), each page made into entries at once so that its decoded objects go. Between
   * pages the cache yields to a cache a request waits for.
   */
  private async listInitial(): Promise<InitialState> {
    const pairs: CachedEntry[] = [];
    const limit = this.opts.initialListPageSize ?? 10_000;
    let continueToken: string | undefined;
    let resourceVersion = '';
    do {
      await this.ticket?.turn();
      if (this.stopped) break;
      const page = await this.source.getList(this.keyPrefix, {
        resourceVersion: '',
        resourceVersionMatch: '',
        predicate: { ...everything, limit, ...(continueToken ? { continueToken } : {}) },
        recursive: true,
      });
      // Later pages are read at the first one's revision (their continue tokens carry it).
      if (!continueToken) resourceVersion = page.resourceVersion;
      const keys = page.keys ?? [];
      const items = page.items;
      for (let i = 0; i < items.length; i++) {
        const key = keys[i];
        if (key === undefined) throw new Error('the store gave no keys with its list');
        pairs.push(this.makeEntry(key, items[i] as KubeObject));
      }
      continueToken = page.continueToken;
    } while (continueToken);
    return { pairs, resourceVersion };
  }

  private replace(state: InitialState): void {
    const pairs = state.pairs;
    this.entries = new Map(pairs.map((e) => [e.key, e]));
    this.sortedKeys = pairs.map((e) => e.key);
    this.index.clear();
    for (const e of pairs) this.index.add(e);
    this.snapshots.clear();
    this.rv = Number(state.resourceVersion);
    this.window.reset(this.rv);
    this.isReady = true;
    this.failedLoads = 0;
    this.opts.metrics?.initialized?.();
    this.opts.metrics?.resourceVersion?.(this.rv);
    for (const r of this.readyWaiters.splice(0)) r();
    this.wakeWaiters();
  }

  private reset(): void {
    this.isReady = false;
    this.terminateAll();
    this.entries = new Map();
    this.sortedKeys = [];
    this.index.clear();
    this.window.reset();
    this.snapshots.clear();
    this.offers.clear();
  }

  private apply(ev: StorageWatchEvent): void {
    if (ev.type === 'ERROR') return;
    if (ev.type === 'BOOKMARK') {
      this.advance(Number(ev.object.metadata.resourceVersion ?? '0'));
      return;
    }
    const key = ev.key;
    if (key === undefined) throw new Error('the store gave no key with its watch event');
    this.opts.metrics?.eventsReceived?.();
    const prev = this.entries.get(key);
    const stored = storedValueOfEvent(ev);
    const offered = stored ? this.offers.take(key, Number(stored.modRevision), stored.value) : undefined;
    const entry = offered ?? this.makeEntry(key, ev.object);
    if (!stored && this.offers.size > 0) this.offers.dropThrough(entry.rv);
    let type: WindowEvent['type'];
    if (ev.type === 'DELETED') {
      if (prev) {
        this.entries.delete(key);
        const i = lowerBound(this.sortedKeys, key);
        if (this.sortedKeys[i] === key) this.sortedKeys.splice(i, 1);
        this.index.remove(prev);
      }
      type = 'DELETED';
    } else {
      if (prev) this.index.remove(prev);
      else {
        const i = lowerBound(this.sortedKeys, key);
        this.sortedKeys.splice(i, 0, key);
      }
      this.entries.set(key, entry);
      this.index.add(entry);
      type = prev ? 'MODIFIED' : 'ADDED';
    }
    const we: WindowEvent = { type, key, rv: entry.rv, cur: entry, prev, at: Date.now() };
    this.pushWindow(we);
    this.advance(entry.rv);
    this.dispatch(we);
  }

  private pushWindow(we: WindowEvent): void {
    this.window.push(we);
    this.opts.metrics?.capacity?.(this.window.size);
  }

  private advance(rv: number): void {
    if (rv <= this.rv) return;
    this.rv = rv;
    this.opts.metrics?.resourceVersion?.(rv);
    this.wakeWaiters();
  }

  private wakeWaiters(): void {
    this.waiters.wake(this.isReady, this.rv);
  }

  /** Waits until the cache reaches rv or timeoutMs passes; true when it did. */
  private waitForRv(rv: number, timeoutMs: number): Promise<boolean> {
    if (this.isReady && this.rv >= rv) return Promise.resolve(true);
    return this.waiters.wait(rv, timeoutMs);
  }

  /**
   * Makes sure the cache reflects at least revision min ("latest": etcd's current revision),
   * waiting for events on their way. When nothing under the prefix changed since the cache's
   * revision, one keys-only range proves it (same key count, no key modified later) and the cache
   * moves to the current revision at once: etcd 3.4 has no reliable progress notifications for
   * this. Throws TooLargeResourceVersion for a revision etcd has not reached or that the cache does
   * not reach in time.
   */
  private async ensureFresh(min: bigint | 'latest'): Promise<void> {
    const deadline = Date.now() + (this.opts.freshnessTimeoutMs ?? 3000);
    for (;;) {
      if (min !== 'latest' && this.isReady && BigInt(this.rv) >= min) return;
      if (!this.source.prefixState) {
        if (min === 'latest') throw new StorageError('TooLargeResourceVersion', this.keyPrefix, 'the watch cache cannot prove it is current');
        if (await this.waitForRv(Number(min), Math.max(0, deadline - Date.now()))) return;
        throw tooLarge(this.keyPrefix, min, BigInt(this.rv));
      }
      this.freshCheck ??= this.source.prefixState(this.keyPrefix).finally(() => {
        this.freshCheck = undefined;
      });
      const st = await this.freshCheck;
      if (min !== 'latest' && min > st.revision) throw tooLarge(this.keyPrefix, min, st.revision);
      const target = min === 'latest' ? st.revision : min;
      if (!this.isReady) {
        if (!(await this.waitForRv(0, Math.max(0, deadline - Date.now())))) throw tooLarge(this.keyPrefix, target, BigInt(this.rv));
        continue;
      }
      if (BigInt(this.rv) >= target) return;
      if (st.maxModRevision <= BigInt(this.rv) && st.count === this.entries.size) {
        this.advance(Number(st.revision));
        return;
      }
      const wantRv = st.maxModRevision > BigInt(this.rv) ? Number(st.maxModRevision) : this.rv + 1;
      const remaining = deadline - Date.now();
      if (remaining <= 0 || !(await this.waitForRv(wantRv, remaining))) throw tooLarge(this.keyPrefix, target, BigInt(this.rv));
    }
  }

  // ---- reads ------------------------------------------------------------------------------

  async get(key: string, opts: GetOptions): Promise<KubeObject> {
    if (!this.isReady) this.ticket?.demand();
    if (!this.isReady || opts.resourceVersion === '') return await this.source.get(key, opts);
    const rv = parseResourceVersion(opts.resourceVersion);
    if (rv > 0n) await this.ensureFresh(rv);
    const entry = this.entries.get(key);
    if (!entry) throw new StorageError('NotFound', key, `key ${key} not found`);
    return materialize(entry);
  }

  /**
   * While the cache (re)initializes (kube's ResilientWatchCacheInitialization): a request the cache
   * would serve waits a moment for it, then is 429 "storage is (re)initializing" (Retry-After 1)
   * rather than fanning out to etcd (a hundred informers re-listing a large resource from etcd at
   * once is what the cache exists to prevent). Returns whether the cache is ready.
   *
   * A delegable request (one kube answers from etcd while the cache is not ready: 'wait' or 'etcd')
   * gets false instead of the 429. 'wait' waits the same moment while the cache's load is under
   * way (not after a failed one): the answer is one kube may give either way, and waiting makes a
   * storm of informers at start-up one etcd list instead of one per client and page. 'etcd' (a
   * continue token the cache could not have issued) does not wait.
   */
  private async readyOr429(key: string, delegable: false | 'wait' | 'etcd'): Promise<boolean> {
    if (this.isReady) return true;
    // The cache a request waits for loads first.
    this.ticket?.demand();
    if (delegable === 'etcd' || (delegable && this.failedLoads > 0)) return false;
    const waitMs = this.opts.notReadyWaitMs ?? 3000;
    let timer: NodeJS.Timeout | undefined;
    const ready = await Promise.race([
      this.waitReady().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), waitMs);
      }),
    ]);
    clearTimeout(timer);
    if (ready) return true;
    if (delegable) return false;
    throw new StorageError('Initializing', key, 'storage is (re)initializing');
  }

  async getList(key: string, opts: ListOptions): Promise<ListResult> {
    if (opts.resourceVersionMatch === 'Exact') return await this.source.getList(key, opts);
    const pred = opts.predicate;
    const paging = (pred.limit ?? 0) > 0;
    const rv = parseResourceVersion(opts.resourceVersion);
    // Legacy: a resourceVersion with a limit and no match is an exact read.
    if (opts.resourceVersionMatch === '' && rv > 0n && paging && !pred.continueToken) return await this.source.getList(key, opts);
    if (opts.resourceVersion === '' && !pred.continueToken && this.opts.consistentListFromCache === false) return await this.source.getList(key, opts);
    // Delegated to etcd while initializing: lists without selectors that ask for a page, and every
    // continue (kube 1.33 sends all of them to etcd; a cache that is not ready issued none).
    const delegable = pred.continueToken ? 'etcd' : pred.everything === true && paging ? 'wait' : false;
    if (!(await this.readyOr429(key, delegable))) return await this.source.getList(key, opts);
    if (pred.continueToken) return await this.listContinue(key, opts);
    if (opts.resourceVersion === '') {
      try {
        await this.ensureFresh('latest');
      } catch {
        return await this.source.getList(key, opts);
      }
    } else if (rv > 0n) {
      await this.ensureFresh(rv);
    }
    if (!opts.recursive) return this.listOne(key, pred);
    const scope = key.endsWith('/') ? key : `${key}/`;
    return this.livePage(scope, pred);
  }

  private listOne(key: string, pred: SelectionPredicate): ListResult {
    const entry = this.entries.get(key);
    const rv = String(this.rv);
    if (!entry) return { items: [], keys: [], encodedItems: [], resourceVersion: rv };
    if (!pred.everything) {
      const obj = materialize(entry);
      if (!pred.matches(obj)) return { items: [], keys: [], encodedItems: [], resourceVersion: rv };
      return { items: [obj], keys: [key], encodedItems: [entry.bytes], resourceVersion: rv };
    }
    return lazyList([entry], [], String(this.rv));
  }

  private async listContinue(key: string, opts: ListOptions): Promise<ListResult> {
    const scope = key.endsWith('/') ? key : `${key}/`;
    const pos = decodeContinue(opts.predicate.continueToken as string, scope);
    const snap = pos.revision > 0n ? (this.snapshots.get(Number(pos.revision)) ?? (await this.snapshotAsOf(pos.revision))) : undefined;
    if (!snap) return await this.source.getList(key, opts);
    // A compacted revision is Expired for the client whatever the cache holds; etcd says so properly.
    if (this.source.isCompacted && (await this.source.isCompacted(pos.revision))) return await this.source.getList(key, opts);
    snap.lastUsed = Date.now();
    const start = lowerBound(snap.keys, pos.startKey);
    return pageOf({ keys: snap.keys, entryAt: (i) => snap.entries[i] as CachedEntry, scope, start, pred: opts.predicate, rv: snap.rv, indexedField: this.opts.indexedField });
  }

  /** A page of the live cache under scope (a snapshot is taken when more remain). */
  private livePage(scope: string, pred: SelectionPredicate): ListResult {
    const keys = this.sortedKeys;
    return pageOf({
      keys,
      entryAt: (i) => this.entries.get(keys[i] as string) as CachedEntry,
      scope,
      start: 0,
      pred,
      rv: this.rv,
      indexedField: this.opts.indexedField,
      live: { index: this.index, entries: this.entries, snapshot: (rv) => this.takeSnapshot(rv) },
    });
  }

  /**
   * A snapshot at revision rv for a continue token the cache did not issue (its first pages came
   * from etcd while the cache was loading), when the cache proves its state is the state at rv:
   * it has reached rv, its window reaches back to rv, and nothing under the prefix changed after
   * rv. Then the rest of a start-up storm's pages come from memory instead of etcd, each exactly
   * as etcd would give it at rv. Undefined when the cache cannot prove it (etcd answers).
   */
  private async snapshotAsOf(rv: bigint): Promise<Snapshot | undefined> {
    if (BigInt(this.window.oldestRv) > rv) return undefined;
    if (BigInt(this.rv) < rv) {
      try {
        await this.ensureFresh(rv);
      } catch {
        return undefined;
      }
    }
    if (!this.isReady || BigInt(this.window.oldestRv) > rv || this.window.hasAfter(Number(rv))) return undefined;
    return this.takeSnapshot(Number(rv));
  }

  private takeSnapshot(rv: number): Snapshot {
    return this.snapshots.take(rv, () => {
      const keys = this.sortedKeys.slice();
      return { keys, entries: keys.map((k) => this.entries.get(k) as CachedEntry) };
    });
  }

  // ---- watches ----------------------------------------------------------------------------

  async watch(key: string, opts: ListOptions): Promise<StorageWatch> {
    const explicitInitial = opts.sendInitialEvents;
    // kube's cacher leaves a watch from "" (the most recent state, without sendInitialEvents) to etcd.
    if (opts.resourceVersion === '' && explicitInitial !== true) return await this.source.watch(key, opts);
    await this.readyOr429(key, false);
    const requested = parseResourceVersion(opts.resourceVersion);
    const sendInitial = explicitInitial ?? opts.resourceVersion === '0';
    if (sendInitial) {
      if (opts.resourceVersion === '') {
        try {
          await this.ensureFresh('latest');
        } catch {
          return await this.source.watch(key, opts);
        }
      } else if (requested > 0n) await this.ensureFresh(requested);
    } else {
      if (requested > BigInt(this.rv)) await this.ensureFresh(requested);
      if (requested > 0n && Number(requested) < this.window.oldestRv) {
        throw new StorageError('Expired', key, `too old resource version: ${requested} (${this.window.oldestRv})`);
      }
    }
    if (!this.isReady) return await this.source.watch(key, opts);

    // From here on everything is synchronous, so no event slips between the state and the stream.
    const pred = opts.predicate;
    const idx = this.opts.indexedField;
    const indexValue = idx && pred.requiredFieldValue ? pred.requiredFieldValue(idx.field) : undefined;
    const scope = opts.recursive ? (key.endsWith('/') ? key : `${key}/`) : key;
    const w = new CacheWatcher(this, scope, opts.recursive, pred, Boolean(opts.allowWatchBookmarks), indexValue, this.opts.maxBufferedEvents ?? 1000);
    if (sendInitial) {
      const state = opts.recursive
        ? this.livePage(scope, { ...pred, limit: 0 })
        : this.listOne(key, pred);
      for (const k of state.keys ?? []) w.pushInitial(new CachedWatchEvent('ADDED', this.entries.get(k) as CachedEntry));
      if (explicitInitial && opts.allowWatchBookmarks) {
        w.bookmark(this.rv, { [initialEventsEndAnnotation]: 'true' });
      }
    } else {
      // "0" without initial events starts now; N replays what came after N.
      const from = requested === 0n ? this.rv : Number(requested);
      for (const we of this.window.after(from)) if (w.covers(we.key)) deliver(w, new Dispatch(we), true);
    }
    w.startRv = this.rv;
    this.addWatcher(w);
    return w;
  }

  private addWatcher(w: CacheWatcher): void {
    this.watcherSet.add(w);
  }

  removeWatcher(w: CacheWatcher): void {
    this.watcherSet.remove(w);
  }

  terminatedForSlowness(): void {
    this.opts.metrics?.terminatedWatcher?.();
  }

  /** How many watchers the cache serves now. */
  get watchers(): number {
    return this.watcherSet.size;
  }

  private terminateAll(): void {
    this.watcherSet.terminateAll();
  }

  private dispatch(we: WindowEvent): void {
    const sent = this.watcherSet.dispatch(we);
    if (sent > 0) this.opts.metrics?.eventsDispatched?.(sent);
  }

  private sendBookmarks(): void {
    if (!this.isReady || this.rv === 0) return;
    this.watcherSet.bookmark(this.rv);
  }

  // ---- writes go to the store -------------------------------------------------------------

  async create(key: string, obj: KubeObject, opts?: CreateOptions): Promise<KubeObject> {
    const settled = this.offers.begin(key);
    try {
      return this.offerWrite(key, await this.source.create(key, obj, opts));
    } finally {
      settled();
    }
  }

  async guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions): Promise<KubeObject> {
    // Try the cached copy first, as kube does: a stale one costs a retry, a fresh one saves a read.
    const cached = opts.cachedExisting ?? (this.isReady ? this.entries.get(key) : undefined);
    const withCached = cached && !opts.cachedExisting ? { ...opts, cachedExisting: materialize(cached as CachedEntry) } : opts;
    const settled = this.offers.begin(key);
    try {
      return this.offerWrite(key, await this.source.guaranteedUpdate(key, withCached));
    } finally {
      settled();
    }
  }

  /**
   * Hands what a write under key stored to the cache before anyone can change out: its entry
   * (JSON made once) waits for the write's etcd event (offers.ts), and out carries the same bytes
   * for the response (those of the entry its event made, when the cache applied that first).
   * Nothing happens for a write that stored nothing (a no-op update).
   */
  private offerWrite(key: string, out: KubeObject): KubeObject {
    if (!this.isReady) return out;
    const written = storedWriteOf(out);
    const rv = Number(out.metadata.resourceVersion);
    if (!written) return out;
    if (!(rv > this.rv)) {
      // The event beat the response here: the entry it made holds the same bytes.
      const applied = this.entries.get(key) as CachedEntry | undefined;
      return applied?.rv === rv ? attachEncodedJson(out, applied.bytes) : out;
    }
    const entry = this.makeEntry(key, out);
    this.offers.offer(entry, written.value);
    return attachEncodedJson(out, entry.bytes);
  }

  delete(key: string, opts: DeleteOptions): Promise<KubeObject> {
    const cached = opts.cachedExisting ?? (this.isReady ? this.entries.get(key) : undefined);
    if (cached && !opts.cachedExisting) return this.source.delete(key, { ...opts, cachedExisting: materialize(cached as CachedEntry) });
    return this.source.delete(key, opts);
  }

  currentRevision(): Promise<string> {
    return this.source.currentRevision();
  }

  readinessCheck(): Promise<void> {
    return this.source.readinessCheck();
  }
}

