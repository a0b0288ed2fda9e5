/**
 * Entries this server's own writes offer to the watch cache, by revision: when a create or update
 * through the cache commits, the cache entry is made from the object the write returned (its JSON
 * made once, also the response's bytes); when the etcd watch then reports that key at that mod
 * revision with the same stored value, the cache takes the offered entry instead of decoding the
 * value and encoding its JSON again.
 *
 * The etcd watch event may come before the write's own response (both share the client's
 * connection): while a write under a key is in flight, the cache holds back an event of that key
 * until the write has settled (and offered), for at most a few milliseconds, keeping the order.
 *
 * Events arrive in revision order, so an offer at or below the revision of an event already
 * applied can never match and is dropped; the count is bounded as well, so memory stays flat when
 * the watch stalls. An offer that is not found (another server wrote, the event came first) costs
 * nothing: the event is decoded as before.
 */
import type { CachedEntry } from './entries.js';

interface Offer {
  readonly entry: CachedEntry;
  /** The value the write stored (sealed when encrypted), compared with the event's. */
  readonly value: Buffer;
}

/** The most offers kept at once (writes whose events have not come back yet). */
const maxOffers = 1024;

/**
 * How many turns of the event loop an event waits for the write in flight on its key: the
 * response is normally in the same or the next socket read. Turns (setImmediate) rather than a
 * timer, which cost more than the decode they save.
 */
const maxWaitTurns = 8;

interface InFlight {
  count: number;
  readonly settled: Promise<void>;
  readonly resolve: () => void;
}

/** Pending offers of one cache, by revision. */
export class WriteOffers {
  private readonly byRev = new Map<number, Offer>();
  private readonly inFlight = new Map<string, InFlight>();

  /** Marks a write under key in flight; the caller calls the returned function once it settled (after offering). */
  begin(key: string): () => void {
    let w = this.inFlight.get(key);
    if (w) w.count++;
    else {
      let resolve!: () => void;
      const settled = new Promise<void>((r) => (resolve = r));
      w = { count: 1, settled, resolve };
      this.inFlight.set(key, w);
    }
    const mine = w;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--mine.count > 0) return;
      if (this.inFlight.get(key) === mine) this.inFlight.delete(key);
      mine.resolve();
    };
  }

  /**
   * For an event of key at rv with no offer yet while a write under key is in flight: a promise
   * that settles once that write has (or after maxWaitTurns). Undefined when there is nothing to wait for.
   */
  waitFor(key: string, rv: number): Promise<void> | undefined {
    const w = this.inFlight.get(key);
    if (!w || this.byRev.has(rv)) return undefined;
    return new Promise<void>((resolve) => {
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        resolve();
      };
      void w.settled.then(finish);
      let turns = 0;
      const turn = (): void => {
        if (done) return;
        if (++turns >= maxWaitTurns) finish();
        else setImmediate(turn);
      };
      setImmediate(turn);
    });
  }

  /** Offers entry (at entry.rv) for the write that stored value. The caller checked entry.rv is above the cache's revision. */
  offer(entry: CachedEntry, value: Buffer): void {
    if (this.byRev.size >= maxOffers) {
      const oldest = this.byRev.keys().next();
      if (!oldest.done) this.byRev.delete(oldest.value);
    }
    this.byRev.set(entry.rv, { entry, value });
  }

  /**
   * The offered entry for the event of key at rv that stored value, if this server's write made
   * it; drops that offer and every offer at or below rv (their events have passed).
   */
  take(key: string, rv: number, value: Buffer): CachedEntry | undefined {
    if (this.byRev.size === 0) return undefined;
    const offer = this.byRev.get(rv);
    this.dropThrough(rv);
    if (!offer || offer.entry.key !== key || !offer.value.equals(value)) return undefined;
    return offer.entry;
  }

  /** Drops every offer at or below rv. */
  dropThrough(rv: number): void {
    // Offers come in nearly ascending order (writes finish out of order only a little): sweep the
    // front, and the whole map once in a while when something below rv sits behind a higher one.
    for (const r of this.byRev.keys()) {
      if (r > rv) break;
      this.byRev.delete(r);
    }
    if (this.byRev.size > maxOffers / 2) for (const r of [...this.byRev.keys()]) if (r <= rv) this.byRev.delete(r);
  }

  /** Drops every offer (the cache re-lists). */
  clear(): void {
    this.byRev.clear();
  }

  /** How many offers are pending (tests). */
  get size(): number {
    return this.byRev.size;
  }
}
