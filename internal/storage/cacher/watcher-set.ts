/**
 * The watchers of one cache, found by what they watch: by every "/"-ended prefix of a key they
 * cover (a namespace, the whole resource) or the key itself, or by the indexed field's value they
 * require (pods of one node). An event is offered only to the watchers that may want it, each
 * getting it as its selector sees it (kube's cacher dispatch).
 */
import { Dispatch, type WindowEvent } from './dispatch.js';
import type { CacheWatcher } from './watcher.js';

/**
 * Sends one event to one watcher as its selector sees it (an object leaving the selection is a
 * DELETED, one entering it an ADDED); true when something was sent. replay: the event is part of
 * the watcher's start (not counted against its buffer bound).
 */
export function deliver(w: CacheWatcher, d: Dispatch, replay = false): boolean {
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

export class WatcherSet {
  private readonly byScope = new Map<string, Set<CacheWatcher>>();
  private readonly byIndex = new Map<string, Set<CacheWatcher>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(w: CacheWatcher): void {
    const map = w.indexValue !== undefined ? this.byIndex : this.byScope;
    const k = w.indexValue !== undefined ? w.indexValue : w.scopeKey;
    let set = map.get(k);
    if (!set) {
      set = new Set();
      map.set(k, set);
    }
    set.add(w);
    this.count++;
  }

  remove(w: CacheWatcher): void {
    const map = w.indexValue !== undefined ? this.byIndex : this.byScope;
    const k = w.indexValue !== undefined ? w.indexValue : w.scopeKey;
    const set = map.get(k);
    if (set?.delete(w)) {
      this.count--;
      if (set.size === 0) map.delete(k);
    }
  }

  /** Ends every watcher's stream. */
  terminateAll(): void {
    for (const w of this.all()) w.terminate();
  }

  /** Offers we to the watchers that may want it; returns how many got it. */
  dispatch(we: WindowEvent): number {
    if (this.count === 0) return 0;
    const d = new Dispatch(we);
    let sent = 0;
    const visit = (set: Set<CacheWatcher> | undefined): void => {
      if (!set) return;
      // Deleting from a Set while iterating it is safe: a watcher ended here is not visited again.
      for (const w of set) if (deliver(w, d)) sent++;
    };
    const key = we.key;
    for (let p = key.indexOf('/', 1); p >= 0; p = key.indexOf('/', p + 1)) visit(this.byScope.get(key.slice(0, p + 1)));
    visit(this.byScope.get(key));
    if (this.byIndex.size > 0) {
      const cur = we.cur.indexValue;
      const prev = we.prev?.indexValue;
      if (cur !== undefined) visit(this.byIndex.get(cur));
      if (prev !== undefined && prev !== cur) visit(this.byIndex.get(prev));
    }
    return sent;
  }

  /** Sends a bookmark at rv to every watcher that allows them. */
  bookmark(rv: number): void {
    for (const w of this.all()) if (w.allowBookmarks && !w.isEnded) w.bookmark(rv);
  }

  private all(): CacheWatcher[] {
    return [...this.byScope.values(), ...this.byIndex.values()].flatMap((s) => [...s]);
  }
}
