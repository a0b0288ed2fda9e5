/**
 * One storage watch over an etcd watch: optional initial state as ADDED events (and the
 * initial-events-end bookmark), then every change after the start revision, filtered by the
 * predicate so that an object leaving the selection arrives as DELETED and one entering it as ADDED.
 */
import type { Etcd3, IKeyValue, IWatchResponse, Watcher } from 'etcd3';
import type { KubeObject } from '../../../api/meta/types.js';
import { StorageError } from '../errors.js';
import { EventQueue } from '../event-queue.js';
import type { ListOptions, ListResult, StorageWatch, StorageWatchEvent } from '../interface.js';
import { interpretEtcdError, isWatchCompacted } from './errors.js';
import { parseResourceVersion } from './revision.js';
import { eventStoredValue } from '../stored-write.js';

/** The annotation on the bookmark that ends a watch's initial events (sendInitialEvents). */
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

/** How often a watch that accepts bookmarks gets one (kube sends about one a minute). */
export const bookmarkIntervalMs = 60_000;

interface ListSource {
  getList(key: string, opts: ListOptions): Promise<ListResult>;
  currentRevision(): Promise<string>;
}

/** What startWatch needs from the store that calls it. */
export interface WatchStartParams {
  readonly client: Etcd3;
  readonly store: ListSource;
  readonly key: string;
  readonly fullKey: string;
  readonly keyPrefix: string;
  readonly opts: ListOptions;
  readonly decode: (kv: IKeyValue) => KubeObject;
  /**
   * Fetches what decoding a response's values needs from outside the process (KMS data keys);
   * undefined when nothing is needed. Events stay in order: later responses wait for it.
   */
  readonly prepare?: (events: ReadonlyArray<{ kv: IKeyValue; prev_kv?: IKeyValue }>) => Promise<void> | undefined;
  /** The key of kv as given to the store (without its prefix). */
  readonly relativeKey: (kv: IKeyValue) => string;
  readonly checkRevisionAvailable: (revision: bigint) => Promise<void>;
  /** Overrides bookmarkIntervalMs (tests). */
  readonly bookmarkIntervalMs?: number;
  /** Told of every etcd watcher this watch creates and of its cancellation (the store closes them all before the client). */
  readonly track?: { created(w: Watcher): void; cancelled(w: Watcher, done: Promise<unknown>): void };
}

/** Starts a watch; rejects with Expired or TooLargeResourceVersion before any event is produced. */
export async function startWatch(p: WatchStartParams): Promise<StorageWatch> {
  const { opts } = p;
  const rv = parseResourceVersion(opts.resourceVersion);
  const legacyInitial = opts.resourceVersion === '' || opts.resourceVersion === '0';
  const sendInitial = opts.sendInitialEvents ?? legacyInitial;
  const queue = new EventQueue<StorageWatchEvent>();

  let startRev: bigint;
  if (sendInitial) {
    const list = await p.store.getList(p.key, {
      resourceVersion: rv > 0n ? opts.resourceVersion : '',
      resourceVersionMatch: rv > 0n ? 'NotOlderThan' : '',
      predicate: { everything: opts.predicate.everything, matches: (o) => opts.predicate.matches(o) },
      recursive: opts.recursive,
    });
    list.items.forEach((item, i) => {
      const key = list.keys?.[i];
      queue.push(key !== undefined ? { type: 'ADDED', object: item, key } : { type: 'ADDED', object: item });
    });
    if (opts.sendInitialEvents && opts.allowWatchBookmarks) {
      queue.push({
        type: 'BOOKMARK',
        object: { metadata: { resourceVersion: list.resourceVersion, annotations: { [initialEventsEndAnnotation]: 'true' } } },
      });
    }
    startRev = BigInt(list.resourceVersion) + 1n;
  } else if (rv === 0n) {
    startRev = BigInt(await p.store.currentRevision()) + 1n;
  } else {
    startRev = rv + 1n;
    await p.checkRevisionAvailable(startRev);
  }

  // The highest revision up to which every event has been queued: resumes and bookmarks use it.
  let safeRev = startRev - 1n;
  let bookmarkedRev = 0n;
  let stopped = false;
  let watcher: Watcher | undefined;
  // Set when etcd cancelled the watcher itself (compaction): the etcd3 library has already dropped
  // it, and a cancel request of ours would bring etcd's answer for a watch id the library no longer
  // knows, which it throws on inside the stream's data handler: the stream is never read again
  // and every other watch on the client stops.
  let cancelledByEtcd = false;
  let timer: NodeJS.Timeout | undefined;

  const onStopped: Array<() => void> = [];
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    for (const f of onStopped.splice(0)) f();
    if (timer) clearInterval(timer);
    queue.end();
    if (watcher) {
      const done = cancelledByEtcd ? Promise.resolve() : watcher.cancel().catch(() => undefined);
      p.track?.cancelled(watcher, done);
    }
  };
  queue.onConsumerDone(stop);

  // Responses waiting for their values to be prepared (KMS data keys being fetched), in order.
  let chain: Promise<void> | undefined;
  const onResponse = (res: IWatchResponse): void => {
    if (stopped) return;
    if (chain === undefined) {
      const pending = p.prepare?.(res.events);
      if (pending === undefined) {
        handleResponse(res);
        return;
      }
      chain = pending;
    } else {
      chain = chain.then(() => p.prepare?.(res.events));
    }
    const mine: Promise<void> = chain
      .then(() => handleResponse(res))
      .catch((err: unknown) => {
        // Never expected (decode errors are handled per event); end the watch rather than lose events.
        if (stopped) return;
        queue.push({ type: 'ERROR', error: err instanceof StorageError ? err : new StorageError('Internal', p.fullKey, String(err)) });
        stop();
      });
    chain = mine;
    void mine.then(() => {
      if (chain === mine) chain = undefined;
    });
  };
  const handleResponse = (res: IWatchResponse): void => {
    if (stopped) return;
    for (const ev of res.events) {
      let out: StorageWatchEvent | undefined;
      try {
        out = toEvent(ev.type, ev.kv, ev.prev_kv, p, opts);
      } catch (err) {
        // Undecodable bytes end the watch with an ERROR event (kube: "unable to decode an event
        // from the watch stream"); the client re-lists, and that list reports the object.
        queue.push({ type: 'ERROR', error: err instanceof StorageError ? err : new StorageError('Corrupt', p.fullKey, String(err)) });
        stop();
        return;
      }
      if (out) queue.push(out);
      const rev = BigInt(ev.kv.mod_revision);
      if (rev > safeRev) safeRev = rev;
    }
    if (res.events.length === 0) {
      // A progress notification: every change up to the header revision has been delivered.
      const rev = BigInt(res.header.revision);
      if (rev > safeRev) safeRev = rev;
      if (opts.allowWatchBookmarks && safeRev > bookmarkedRev) pushBookmark();
    }
  };
  const pushBookmark = (): void => {
    bookmarkedRev = safeRev;
    queue.push({ type: 'BOOKMARK', object: { metadata: { resourceVersion: safeRev.toString() } } });
  };

  const builder = p.client.watch().withPreviousKV().startRevision(startRev.toString());
  if (p.opts.recursive) builder.prefix(p.keyPrefix);
  else builder.key(p.fullKey);
  try {
    // The watcher object exists (and is attached to the client's watch stream) from here on: the
    // store tracks it at once, so that closing the store cancels it even while etcd creates it.
    const pending = builder.watcher();
    p.track?.created(pending);
    watcher = pending;
    // The library emits 'error' only for etcd's cancellation of the watcher (see cancelledByEtcd).
    pending.once('error', () => (cancelledByEtcd = true));
    await Promise.race([
      new Promise<void>((resolve) => pending.once('connected', () => resolve())),
      new Promise<never>((_, reject) => pending.once('error', (err: unknown) => reject(err))),
      new Promise<void>((resolve) => onStopped.push(resolve)),
    ]);
  } catch (err) {
    stop();
    if (isWatchCompacted(err)) throw new StorageError('Expired', p.fullKey, 'The resourceVersion for the provided watch is too old.');
    throw interpretEtcdError(err, p.fullKey);
  }
  const w = watcher;
  if (stopped) {
    // Stopped while etcd was creating it (stop() has cancelled it): nothing will come.
    return { stop, takeReady: () => queue.takeReady(), [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator]() };
  }
  w.on('data', onResponse);
  w.on('disconnected', () => {
    // The client resumes from its own idea of the last revision, which can run ahead of what it
    // delivered; resume from the last revision this watch queued instead.
    (w.request as { start_revision?: number }).start_revision = Number(safeRev + 1n);
  });
  w.on('error', (err: unknown) => {
    if (stopped) return;
    const error = isWatchCompacted(err)
      ? new StorageError('Expired', p.fullKey, 'The resourceVersion for the provided watch is too old.')
      : interpretEtcdError(err, p.fullKey);
    queue.push({ type: 'ERROR', error });
    stop();
  });
  if (opts.allowWatchBookmarks) {
    timer = setInterval(() => {
      if (!stopped && safeRev > 0n) pushBookmark();
    }, p.bookmarkIntervalMs ?? bookmarkIntervalMs);
    timer.unref();
  }

  return {
    stop,
    takeReady: () => queue.takeReady(),
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
  };
}

function toEvent(
  type: string,
  kv: IKeyValue,
  prevKv: IKeyValue | undefined,
  p: WatchStartParams,
  opts: ListOptions,
): StorageWatchEvent | undefined {
  const pred = opts.predicate;
  const key = p.relativeKey(kv);
  const isDelete = type.toLowerCase() === 'delete';
  if (opts.lazyObjects && pred.everything) return isDelete && !prevKv ? undefined : new LazyEvent(isDelete, kv, prevKv, key, p.decode);
  if (isDelete) {
    if (!prevKv) return undefined;
    const prev = p.decode(prevKv);
    prev.metadata.resourceVersion = kv.mod_revision;
    return pred.everything || pred.matches(prev) ? { type: 'DELETED', object: prev, key } : undefined;
  }
  const cur = p.decode(kv);
  const isCreate = kv.create_revision === kv.mod_revision || !prevKv;
  if (pred.everything) return { type: isCreate ? 'ADDED' : 'MODIFIED', object: cur, key };
  const curMatches = pred.matches(cur);
  const prevMatches = !isCreate && prevKv ? pred.matches(p.decode(prevKv)) : false;
  if (curMatches && prevMatches) return { type: 'MODIFIED', object: cur, key };
  if (curMatches) return { type: 'ADDED', object: cur, key };
  if (prevMatches) return { type: 'DELETED', object: cur, key };
  return undefined;
}

/**
 * An event of a watch without a selector whose object is decoded when first read (ListOptions
 * lazyObjects); a put also exposes its stored value, so a consumer that recognises the write
 * never decodes it. Reading object throws StorageError Corrupt on undecodable bytes.
 */
class LazyEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly [eventStoredValue]: { readonly value: Buffer; readonly modRevision: string } | undefined;
  private decoded: KubeObject | undefined;

  constructor(
    private readonly isDelete: boolean,
    private readonly kv: IKeyValue,
    private readonly prevKv: IKeyValue | undefined,
    readonly key: string,
    private readonly decode: (kv: IKeyValue) => KubeObject,
  ) {
    this.type = isDelete ? 'DELETED' : kv.create_revision === kv.mod_revision || !prevKv ? 'ADDED' : 'MODIFIED';
    this[eventStoredValue] = isDelete ? undefined : { value: kv.value, modRevision: kv.mod_revision };
  }

  get object(): KubeObject {
    if (this.decoded) return this.decoded;
    if (this.isDelete) {
      // The last state, at the deletion's revision (as the eager path gives it).
      const prev = this.decode(this.prevKv as IKeyValue);
      prev.metadata.resourceVersion = this.kv.mod_revision;
      this.decoded = prev;
    } else {
      this.decoded = this.decode(this.kv);
    }
    return this.decoded;
  }
}
