/**
 * One watch served by the watch cache: a bounded queue of events for one client. A watcher that
 * falls too far behind (its queue holds more than its limit of live events) is ended, as kube
 * ends watchers that block the cache's dispatch; the client resumes or re-lists.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { EventQueue } from '../event-queue.js';
import type { SelectionPredicate, StorageWatch, StorageWatchEvent } from '../interface.js';

/** Where a watcher is registered in the cache's indexes and how it leaves them. */
export interface WatcherHost {
  removeWatcher(w: CacheWatcher): void;
  /** Counts a watcher ended for being too slow. */
  terminatedForSlowness(w: CacheWatcher): void;
}

/** A watcher of the cache. */
export class CacheWatcher implements StorageWatch {
  private readonly queue = new EventQueue<StorageWatchEvent>();
  /** Events at or below this revision are already covered (initial state or replay). */
  startRv = 0;
  /** The revision of the last bookmark sent. */
  lastBookmarkRv = 0;
  /** How many queued events may wait on top of the initial ones before the watcher is ended. */
  private bound: number;
  private ended = false;

  constructor(
    private readonly host: WatcherHost,
    /** The key prefix ("/pods/ns/", ending in "/") of a recursive watch, or the one key watched. */
    readonly scopeKey: string,
    readonly recursive: boolean,
    readonly predicate: SelectionPredicate,
    readonly allowBookmarks: boolean,
    /** The value of the cache's indexed field this watcher requires, when it requires one. */
    readonly indexValue: string | undefined,
    readonly maxBuffered: number,
  ) {
    this.bound = maxBuffered;
    this.queue.onConsumerDone(() => this.stop());
  }

  /** Whether key is in this watcher's scope. */
  covers(key: string): boolean {
    return this.recursive ? key.startsWith(this.scopeKey) : key === this.scopeKey;
  }

  /** Queues an initial event (not counted against the bound). */
  pushInitial(ev: StorageWatchEvent): void {
    this.queue.push(ev);
    this.bound++;
  }

  /** Queues a live event; ends the watcher when it has fallen too far behind. */
  push(ev: StorageWatchEvent): void {
    if (this.ended) return;
    this.queue.push(ev);
    if (this.queue.length > this.bound) {
      this.host.terminatedForSlowness(this);
      this.terminate();
    }
  }

  /** Sends a bookmark at rv. */
  bookmark(rv: number, annotations?: Record<string, string>): void {
    this.lastBookmarkRv = rv;
    const object: KubeObject = { metadata: { resourceVersion: String(rv), ...(annotations ? { annotations } : {}) } };
    this.queue.push({ type: 'BOOKMARK', object });
  }

  /** Ends the stream after what is queued (the cache is going away or the watcher is too slow). */
  terminate(): void {
    if (this.ended) return;
    this.ended = true;
    this.host.removeWatcher(this);
    this.queue.end();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  stop(): void {
    this.terminate();
  }

  takeReady(): StorageWatchEvent | undefined {
    return this.queue.takeReady();
  }

  [Symbol.asyncIterator](): AsyncIterator<StorageWatchEvent> {
    return this.queue[Symbol.asyncIterator]();
  }
}
