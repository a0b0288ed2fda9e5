/**
 * The order in which a server's watch caches load their initial state. A fresh server has a cache
 * for every resource, and loading them all at once makes the one a client is waiting for as slow
 * as the slowest (all of them decode on one thread). Caches start a few at a time; a cache a
 * request is waiting for is demanded: it starts at once, and caches still loading yield to it
 * between the pages of their initial lists.
 */

/** One cache's place in the queue. */
export interface InitTicket {
  /** A request waits for this cache: start it now if it is queued, and give it priority. Idempotent. */
  demand(): void;
  /** Resolves when this cache may read its next page (at once unless a demanded cache is loading). */
  turn(): Promise<void>;
  /** The cache's first load ended (it has its initial state, failed or stopped): its slot goes to the next in line. Idempotent. */
  done(): void;
}

interface Entry {
  readonly start: () => void;
  state: 'queued' | 'loading' | 'done';
  demanded: boolean;
}

/** A bounded queue of cache initialisations in which demanded caches go first. */
export class InitQueue {
  private readonly queued: Entry[] = [];
  private loading = 0;
  private demandedLoading = 0;
  private turnWaiters: Array<{ readonly e: Entry; readonly resume: () => void }> = [];

  /** concurrency: how many caches load at once unless demanded (a demanded one never waits). */
  constructor(private readonly concurrency = 2) {}

  /** Adds a cache; start() begins its initial list (called once, now or later). */
  enqueue(start: () => void): InitTicket {
    const e: Entry = { start, state: 'queued', demanded: false };
    this.queued.push(e);
    this.pump();
    return {
      demand: () => this.demand(e),
      turn: () => this.turn(e),
      done: () => this.done(e),
    };
  }

  /** How many caches are still waiting for their turn to start (tests, metrics). */
  get waiting(): number {
    return this.queued.length;
  }

  private launch(e: Entry): void {
    e.state = 'loading';
    this.loading++;
    if (e.demanded) this.demandedLoading++;
    e.start();
  }

  private pump(): void {
    while (this.loading < this.concurrency && this.queued.length > 0) this.launch(this.queued.shift() as Entry);
  }

  private demand(e: Entry): void {
    if (e.demanded || e.state === 'done') return;
    e.demanded = true;
    if (e.state === 'loading') {
      this.demandedLoading++;
      this.resume((w) => w.e === e);
      return;
    }
    this.queued.splice(this.queued.indexOf(e), 1);
    this.launch(e);
  }

  private turn(e: Entry): Promise<void> {
    if (e.demanded || e.state !== 'loading' || this.demandedLoading === 0) return Promise.resolve();
    return new Promise((resume) => this.turnWaiters.push({ e, resume }));
  }

  private resume(which: (w: { readonly e: Entry }) => boolean): void {
    const still = this.turnWaiters.filter((w) => !which(w));
    for (const w of this.turnWaiters) if (which(w)) w.resume();
    this.turnWaiters = still;
  }

  private done(e: Entry): void {
    if (e.state === 'done') return;
    if (e.state === 'queued') this.queued.splice(this.queued.indexOf(e), 1);
    else {
      this.loading--;
      if (e.demanded && --this.demandedLoading === 0) this.resume(() => true);
    }
    e.state = 'done';
    this.pump();
  }
}
