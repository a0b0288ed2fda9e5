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
import { decodeContinue, encodeContinue } from '../continue-token.js';
import { StorageError } from '../errors.js';
import { parseResourceVersion } from '../etcd3/revision.js';
import { initialEventsEndAnnotation } from '../etcd3/watcher.js';
import type {
  DeleteOptions,
  GetOptions,
  GuaranteedUpdateOptions,
  ListOptions,
  ListResult,
  ObjectAttrs,
  SelectionPredicate,
  Storage,
  StorageWatch,
  StorageWatchEvent,
  CreateOptions,
} from '../interface.js';
import { compareByteOrder } from '../../selectors/byte-order.js';
import { CachedWatchEvent, encodeForCache, lowerBound, materialize, prefixEndIndex, type CachedEntry } from './entries.js';
import type { InitQueue, InitTicket } from './init-queue.js';
import { CacheWatcher, type WatcherHost } from './watcher.js';
import { WriteOffers } from './offers.js';
import { attachEncodedJson } from '../encoded.js';
import { storedValueOfEvent, storedWriteOf } from '../stored-write.js';

/** What the cache needs from the store under it beyond Storage (the etcd3 store has both). */
export interface CacheSource extends Storage {
  /** The revision now, the number of keys under key and their highest mod revision. */
  prefixState?(key: string): Promise<{ revision: bigint; count: number; maxModRevision: bigint }>;
  /** Whether revision has been compacted away. */
  isCompacted?(revision: bigint): Promise<boolean>;
}

/** A field the cache indexes (pods by spec.nodeName) for lists and watches that require a value of it. */
export interface IndexedField {
  readonly field: string;
  valueOf(obj: KubeObject): string;
}

/** Metrics the cache reports; all optional. */
export interface CacherMetrics {
  eventsReceived?(): void;
  eventsDispatched?(n: number): void;
  initialized?(): void;
  resourceVersion?(rv: number): void;
  capacity?(n: number): void;
  terminatedWatcher?(): void;
}

/** Options of one cache. */
export interface CacherOptions {
  /** The key prefix the resource's objects live under, e.g. "/pods". */
  readonly keyPrefix: string;
  readonly source: CacheSource;
  readonly indexedField?: IndexedField;
  readonly metrics?: CacherMetrics;
  /** How often watchers that allow bookmarks get one (kube: about a minute). */
  readonly bookmarkIntervalMs?: number;
  /** Live events a watcher may have queued before it is ended for being too slow. */
  readonly maxBufferedEvents?: number;
  /** How long the event window keeps events at least (kube's eventFreshDuration: 75 s). */
  readonly eventFreshMs?: number;
  /** The window's smallest and largest size (kube: 100 and 100 * 1024). */
  readonly minWindow?: number;
  readonly maxWindow?: number;
  /** How long a read waits for the cache to reach a resourceVersion (kube: 3 s). */
  readonly freshnessTimeoutMs?: number;
  /** How long a request waits for a (re)initializing cache before its 429 (default 3 s). */
  readonly notReadyWaitMs?: number;
  /** Where the cache waits for its turn to load (the server's caches share one); absent: it loads at once. */
  readonly initQueue?: InitQueue;
  /** Objects per page of the initial list (kube's reflector: 10,000). */
  readonly initialListPageSize?: number;
  readonly log?: (message: string) => void;
  /**
   * The ConsistentListFromCache gate (kube 1.33: on): a list at the most recent version ("") is
   * served from the cache once it is proven current; off, it is read from etcd.
   */
  readonly consistentListFromCache?: boolean;
}

/** One event of the window. */
interface WindowEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly key: string;
  readonly rv: number;
  /** The new state; for DELETED, the last state with the deletion's revision. */
  readonly cur: CachedEntry;
  /** The state before, when there was one. */
  readonly prev: CachedEntry | undefined;
  readonly at: number;
}

/** What a cache loads before it serves: its entries in key order and the revision they were read at. */
interface InitialState {
  readonly pairs: readonly CachedEntry[];
  readonly resourceVersion: string;
}

/** A paging snapshot: the sorted keys and entries at one revision. */
interface Snapshot {
  readonly rv: number;
  readonly keys: readonly string[];
  readonly entries: readonly CachedEntry[];
  lastUsed: number;
}

const everything: SelectionPredicate = { everything: true, matches: () => true };
const maxSnapshots = 16;
const snapshotTtlMs = 5 * 60_000;

/** Per dispatched event: shared event objects and the object attributes, computed at most once. */
class Dispatch {
  private events: Partial<Record<string, CachedWatchEvent>> = {};
  private attrsCache = new Map<'cur' | 'prev', ObjectAttrs>();
  private objects = new Map<'cur' | 'prev', KubeObject>();
  constructor(readonly ev: WindowEvent) {}

  event(type: 'ADDED' | 'MODIFIED' | 'DELETED'): CachedWatchEvent {
    const e = this.events[type];
    if (e) return e;
    const made = new CachedWatchEvent(type, this.ev.cur);
    this.events[type] = made;
    return made;
  }

  private object(which: 'cur' | 'prev'): KubeObject {
    let o = this.objects.get(which);
    if (!o) {
      const entry = which === 'cur' ? this.ev.cur : this.ev.prev;
      o = materialize(entry as CachedEntry);
      this.objects.set(which, o);
    }
    return o;
  }

  matches(pred: SelectionPredicate, which: 'cur' | 'prev'): boolean {
    if (pred.everything) return true;
    if (pred.attrs && pred.matchesAttrs) {
      let a = this.attrsCache.get(which);
      if (!a) {
        a = pred.attrs(this.object(which));
        this.attrsCache.set(which, a);
      }
      return pred.matchesAttrs(a);
    }
    return pred.matches(this.object(which));
  }
}

/** The watch cache of one resource. */
export class Cacher implements Storage, WatcherHost {
  private readonly source: CacheSource;
  private readonly keyPrefix: string;
  private readonly opts: CacherOptions;

  private entries = new Map<string, CachedEntry>();
  private sortedKeys: string[] = [];
  private index = new Map<string, Set<string>>();
  /** The revision the cache reflects. */
  private rv = 0;
  /** Watches from a revision at or above this one are served from the window. */
  private oldestRv = 0;
  private window: WindowEvent[] = [];
  private windowHead = 0;
  /** Entries this server's writes made, waiting for their etcd watch events (offers.ts). */
  private readonly offers = new WriteOffers();

  private watchersByScope = new Map<string, Set<CacheWatcher>>();
  private watchersByIndex = new Map<string, Set<CacheWatcher>>();
  private watcherCount = 0;
  private snapshots = new Map<number, Snapshot>();
  private waiters: Array<{ rv: number; resolve: () => void }> = [];
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
    this.index = new Map();
    for (const e of pairs) this.indexAdd(e);
    this.window = [];
    this.windowHead = 0;
    this.snapshots.clear();
    this.rv = Number(state.resourceVersion);
    this.oldestRv = this.rv;
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
    this.index = new Map();
    this.window = [];
    this.windowHead = 0;
    this.snapshots.clear();
    this.offers.clear();
  }

  private indexAdd(e: CachedEntry): void {
    if (e.indexValue === undefined) return;
    let set = this.index.get(e.indexValue);
    if (!set) {
      set = new Set();
      this.index.set(e.indexValue, set);
    }
    set.add(e.key);
  }

  private indexRemove(e: CachedEntry): void {
    if (e.indexValue === undefined) return;
    const set = this.index.get(e.indexValue);
    if (!set) return;
    set.delete(e.key);
    if (set.size === 0) this.index.delete(e.indexValue);
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
        this.indexRemove(prev);
      }
      type = 'DELETED';
    } else {
      if (prev) this.indexRemove(prev);
      else {
        const i = lowerBound(this.sortedKeys, key);
        this.sortedKeys.splice(i, 0, key);
      }
      this.entries.set(key, entry);
      this.indexAdd(entry);
      type = prev ? 'MODIFIED' : 'ADDED';
    }
    const we: WindowEvent = { type, key, rv: entry.rv, cur: entry, prev, at: Date.now() };
    this.pushWindow(we);
    this.advance(entry.rv);
    this.dispatch(we);
  }

  private pushWindow(we: WindowEvent): void {
    this.window.push(we);
    const min = this.opts.minWindow ?? 100;
    const max = this.opts.maxWindow ?? 100 * 1024;
    const freshMs = this.opts.eventFreshMs ?? 75_000;
    const now = we.at;
    while (this.window.length - this.windowHead > max || (this.window.length - this.windowHead > min && now - (this.window[this.windowHead] as WindowEvent).at > freshMs)) {
      const old = this.window[this.windowHead] as WindowEvent;
      this.oldestRv = old.rv;
      this.window[this.windowHead] = undefined as unknown as WindowEvent;
      this.windowHead++;
    }
    if (this.windowHead > 1024 && this.windowHead * 2 > this.window.length) {
      this.window = this.window.slice(this.windowHead);
      this.windowHead = 0;
    }
    this.opts.metrics?.capacity?.(this.window.length - this.windowHead);
  }

  private advance(rv: number): void {
    if (rv <= this.rv) return;
    this.rv = rv;
    this.opts.metrics?.resourceVersion?.(rv);
    this.wakeWaiters();
  }

  private wakeWaiters(): void {
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (this.isReady && this.rv >= w.rv) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  /** Waits until the cache reaches rv or timeoutMs passes; true when it did. */
  private waitForRv(rv: number, timeoutMs: number): Promise<boolean> {
    if (this.isReady && this.rv >= rv) return Promise.resolve(true);
    return new Promise((resolve) => {
      const entry = {
        rv,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== entry);
        resolve(false);
      }, timeoutMs);
      timer.unref();
      this.waiters.push(entry);
    });
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
    return this.page(this.sortedKeys, (i) => this.entries.get(this.sortedKeys[i] as string) as CachedEntry, scope, 0, pred, this.rv, true);
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
    return this.page(snap.keys, (i) => snap.entries[i] as CachedEntry, scope, start, opts.predicate, snap.rv, false);
  }

  /**
   * One page of keys[start..] under scope: selected entries up to the limit, and a continue token
   * (with a snapshot to continue from) when more remain. entryAt(i) is the entry of keys[i].
   */
  private page(
    keys: readonly string[],
    entryAt: (i: number) => CachedEntry,
    scope: string,
    start: number,
    pred: SelectionPredicate,
    rv: number,
    fromLive: boolean,
  ): ListResult {
    const limit = pred.limit && pred.limit > 0 ? pred.limit : 0;
    const first = Math.max(start, lowerBound(keys, scope));
    const end = prefixEndIndex(keys, scope, first);
    const idx = this.opts.indexedField;
    const required = idx && pred.requiredFieldValue ? pred.requiredFieldValue(idx.field) : undefined;
    const selected: CachedEntry[] = [];
    const decoded: Array<KubeObject | undefined> = [];
    if (required !== undefined && fromLive && !limit) {
      // The index narrows the candidates; the selector still decides.
      const candidates = [...(this.index.get(required) ?? [])].filter((k) => k.startsWith(scope)).sort(compareByteOrder);
      for (const k of candidates) {
        const e = this.entries.get(k) as CachedEntry;
        const obj = materialize(e);
        if (pred.matches(obj)) {
          selected.push(e);
          decoded.push(obj);
        }
      }
      return lazyList(selected, decoded, String(rv));
    }
    const selects = (e: CachedEntry): KubeObject | true | undefined => {
      if (pred.everything) return true;
      if (required !== undefined && e.indexValue !== undefined && e.indexValue !== required) return undefined;
      const obj = materialize(e);
      return pred.matches(obj) ? obj : undefined;
    };
    let i = first;
    let lastIncluded = -1;
    for (; i < end; i++) {
      if (limit && selected.length >= limit) break;
      const e = entryAt(i);
      const hit = selects(e);
      if (hit === undefined) continue;
      selected.push(e);
      decoded.push(hit === true ? undefined : hit);
      lastIncluded = i;
    }
    let more = false;
    if (limit > 0 && selected.length >= limit) {
      for (let j = i; j < end && !more; j++) more = selects(entryAt(j)) !== undefined;
    }
    if (!more) return lazyList(selected, decoded, String(rv));
    if (fromLive) this.takeSnapshot(rv);
    return lazyList(selected, decoded, String(rv), {
      continueToken: encodeContinue(`${keys[lastIncluded] as string}\x00`, scope, BigInt(rv)),
      ...(pred.everything ? { remainingItemCount: end - i } : {}),
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
    if (BigInt(this.oldestRv) > rv) return undefined;
    if (BigInt(this.rv) < rv) {
      try {
        await this.ensureFresh(rv);
      } catch {
        return undefined;
      }
    }
    if (!this.isReady || BigInt(this.oldestRv) > rv || this.firstWindowIndexAfter(Number(rv)) < this.window.length) return undefined;
    return this.takeSnapshot(Number(rv));
  }

  private takeSnapshot(rv: number): Snapshot {
    const existing = this.snapshots.get(rv);
    if (existing) return existing;
    const now = Date.now();
    for (const [k, s] of this.snapshots) if (now - s.lastUsed > snapshotTtlMs) this.snapshots.delete(k);
    while (this.snapshots.size >= maxSnapshots) {
      let oldest: Snapshot | undefined;
      for (const s of this.snapshots.values()) if (!oldest || s.lastUsed < oldest.lastUsed) oldest = s;
      if (!oldest) break;
      this.snapshots.delete(oldest.rv);
    }
    const keys = this.sortedKeys.slice();
    const snap: Snapshot = { rv, keys, entries: keys.map((k) => this.entries.get(k) as CachedEntry), lastUsed: now };
    this.snapshots.set(rv, snap);
    return snap;
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
      if (requested > 0n && Number(requested) < this.oldestRv) {
        throw new StorageError('Expired', key, `too old resource version: ${requested} (${this.oldestRv})`);
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
        ? this.page(this.sortedKeys, (i) => this.entries.get(this.sortedKeys[i] as string) as CachedEntry, scope, 0, { ...pred, limit: 0 }, this.rv, true)
        : this.listOne(key, pred);
      for (const k of state.keys ?? []) w.pushInitial(new CachedWatchEvent('ADDED', this.entries.get(k) as CachedEntry));
      if (explicitInitial && opts.allowWatchBookmarks) {
        w.bookmark(this.rv, { [initialEventsEndAnnotation]: 'true' });
      }
    } else {
      // "0" without initial events starts now; N replays what came after N.
      const from = requested === 0n ? this.rv : Number(requested);
      for (let i = this.firstWindowIndexAfter(from); i < this.window.length; i++) {
        const we = this.window[i] as WindowEvent;
        if (w.covers(we.key)) this.deliver(w, new Dispatch(we), true);
      }
    }
    w.startRv = this.rv;
    this.addWatcher(w);
    return w;
  }

  private firstWindowIndexAfter(rv: number): number {
    let lo = this.windowHead;
    let hi = this.window.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.window[mid] as WindowEvent).rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private addWatcher(w: CacheWatcher): void {
    const map = w.indexValue !== undefined ? this.watchersByIndex : this.watchersByScope;
    const k = w.indexValue !== undefined ? w.indexValue : w.scopeKey;
    let set = map.get(k);
    if (!set) {
      set = new Set();
      map.set(k, set);
    }
    set.add(w);
    this.watcherCount++;
  }

  removeWatcher(w: CacheWatcher): void {
    const map = w.indexValue !== undefined ? this.watchersByIndex : this.watchersByScope;
    const k = w.indexValue !== undefined ? w.indexValue : w.scopeKey;
    const set = map.get(k);
    if (set?.delete(w)) {
      this.watcherCount--;
      if (set.size === 0) map.delete(k);
    }
  }

  terminatedForSlowness(): void {
    this.opts.metrics?.terminatedWatcher?.();
  }

  /** How many watchers the cache serves now. */
  get watchers(): number {
    return this.watcherCount;
  }

  private terminateAll(): void {
    const all = [...this.watchersByScope.values(), ...this.watchersByIndex.values()].flatMap((s) => [...s]);
    for (const w of all) w.terminate();
  }

  private dispatch(we: WindowEvent): void {
    if (this.watcherCount === 0) return;
    const d = new Dispatch(we);
    let sent = 0;
    const visit = (set: Set<CacheWatcher> | undefined): void => {
      if (!set) return;
      // Deleting from a Set while iterating it is safe: a watcher ended here is not visited again.
      for (const w of set) if (this.deliver(w, d)) sent++;
    };
    // Watchers are indexed by the scope they watch: every "/"-ended prefix of the key, and the key.
    const key = we.key;
    for (let p = key.indexOf('/', 1); p >= 0; p = key.indexOf('/', p + 1)) visit(this.watchersByScope.get(key.slice(0, p + 1)));
    visit(this.watchersByScope.get(key));
    if (this.watchersByIndex.size > 0) {
      const cur = we.cur.indexValue;
      const prev = we.prev?.indexValue;
      if (cur !== undefined) visit(this.watchersByIndex.get(cur));
      if (prev !== undefined && prev !== cur) visit(this.watchersByIndex.get(prev));
    }
    if (sent > 0) this.opts.metrics?.eventsDispatched?.(sent);
  }

  /**
   * Sends one event to one watcher as its selector sees it; true when something was sent.
   * replay: the event is part of the watcher's start (not counted against its buffer bound).
   */
  private deliver(w: CacheWatcher, d: Dispatch, replay = false): boolean {
    const we = d.ev;
    if (we.rv <= w.startRv || w.isEnded || !w.covers(we.key)) return false;
    const pred = w.predicate;
    let type: 'ADDED' | 'MODIFIED' | 'DELETED' | undefined;
    if (pred.everything) type = we.type;
    else if (we.type === 'DELETED') type = d.matches(pred, 'cur') ? 'DELETED' : undefined;
    else {
      const curMatches = d.matches(pred, 'cur');
      const prevMatches = we.prev ? d.matches(pred, 'prev') : false;
      if (curMatches) type = prevMatches ? 'MODIFIED' : 'ADDED';
      else if (prevMatches) type = 'DELETED';
    }
    if (!type) return false;
    if (replay) w.pushInitial(d.event(type));
    else w.push(d.event(type));
    return true;
  }

  private sendBookmarks(): void {
    if (!this.isReady || this.rv === 0) return;
    for (const set of [...this.watchersByScope.values(), ...this.watchersByIndex.values()]) {
      for (const w of set) if (w.allowBookmarks && !w.isEnded) w.bookmark(this.rv);
    }
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

function tooLarge(key: string, requested: bigint, current: bigint): StorageError {
  return new StorageError('TooLargeResourceVersion', key, `Too large resource version: ${requested}, current: ${current}`, undefined, {
    requested: requested.toString(),
    current: current.toString(),
  });
}

/**
 * A list result whose items are decoded only when someone reads them; encodedItems and keys are
 * there from the start. decoded holds objects already decoded (by a selector), by position.
 */
function lazyList(
  entries: readonly CachedEntry[],
  decoded: readonly (KubeObject | undefined)[],
  resourceVersion: string,
  extra: { continueToken?: string; remainingItemCount?: number } = {},
): ListResult {
  let items: KubeObject[] | undefined;
  const result = {
    resourceVersion,
    keys: entries.map((e) => e.key),
    encodedItems: entries.map((e) => e.bytes),
    ...extra,
  } as unknown as ListResult;
  Object.defineProperty(result, 'items', {
    enumerable: true,
    configurable: true,
    get: () => {
      items ??= entries.map((e, i) => decoded[i] ?? materialize(e));
      return items;
    },
  });
  return result;
}
