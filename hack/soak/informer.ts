/**
 * An informer as client-go's reflector runs one: list, then watch from the list's
 * resourceVersion, watch again from the last resourceVersion seen when a stream ends, and relist
 * on 410 Gone. It checks what a reflector trusts: every event's resourceVersion is above the last
 * one (no duplicate, no reordering), an ADDED is for an object it does not hold, a MODIFIED or
 * DELETED for one it does, and a relist agrees with what it held for every object the list shows
 * unchanged since the last resourceVersion it saw. Anything else is a defect.
 */
import type { SoakClient } from './client.js';
import type { Recorder } from './recorder.js';

/** A watched collection. */
export interface WatchedResource {
  /** A short name for messages (configmaps, pods, ...). */
  readonly name: string;
  /** The collection's path, e.g. /api/v1/namespaces/soak/configmaps. */
  readonly path: string;
}

interface Meta {
  name: string;
  resourceVersion: string;
}

/** One informer on one collection, preferring one server. */
export class Informer {
  /** Object name -> resourceVersion, as the informer believes it. */
  readonly cache = new Map<string, number>();
  /** Object name -> how the informer learnt its resourceVersion (for the messages of a defect). */
  readonly source = new Map<string, string>();
  lastRV = 0;
  private close: (() => void) | undefined;
  private stopped = false;
  private waiters: Array<{ rv: number; resolve: () => void }> = [];

  constructor(
    readonly resource: WatchedResource,
    private readonly client: SoakClient,
    private readonly recorder: Recorder,
    private readonly prefer: number,
  ) {}

  /** A name for messages. */
  get label(): string {
    return `informer ${this.resource.name}@${this.prefer}`;
  }

  /** Lists and starts watching; resolves after the first list. */
  async start(): Promise<void> {
    await this.relist(true);
  }

  /** Stops watching. */
  stop(): void {
    this.stopped = true;
    this.close?.();
  }

  /** Resolves once the informer has seen resourceVersion rv (or later), false after timeoutMs. */
  caughtUp(rv: number, timeoutMs: number): Promise<boolean> {
    if (this.lastRV >= rv) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push({ rv, resolve: () => (clearTimeout(timer), resolve(true)) });
    });
  }

  private advance(rv: number): void {
    this.lastRV = rv;
    this.waiters = this.waiters.filter((w) => (w.rv <= rv ? (w.resolve(), false) : true));
  }

  private async relist(initial = false): Promise<void> {
    while (!this.stopped) {
      const res = await this.client.send('list', 'GET', this.resource.path, { prefer: this.prefer });
      if (res.status === 200) {
        this.recorder.relist();
        const list = res.json() as { metadata: { resourceVersion: string }; items: Array<{ metadata: Meta }> };
        const listRV = Number(list.metadata.resourceVersion);
        const items = new Map(list.items.map((o) => [o.metadata.name, Number(o.metadata.resourceVersion)]));
        if (!initial) this.checkRelist(listRV, items, res.server);
        this.cache.clear();
        this.source.clear();
        for (const [n, rv] of items) {
          this.cache.set(n, rv);
          this.source.set(n, `list at ${listRV} from ${res.server}`);
        }
        this.advance(Math.max(listRV, this.lastRV));
        this.watch();
        return;
      }
      await sleep(500);
    }
  }

  /** A relist at listRV must show every object unchanged since lastRV as the informer held it. */
  private checkRelist(listRV: number, items: Map<string, number>, server: string): void {
    if (listRV < this.lastRV) this.recorder.defect(`${this.label}: a list from ${server} is at resourceVersion ${listRV}, older than ${this.lastRV} already seen`);
    for (const [name, rv] of items) {
      if (rv > this.lastRV) continue;
      const held = this.cache.get(name);
      if (held !== rv) this.recorder.defect(`${this.label}: relist shows ${name} at resourceVersion ${rv} (<= last seen ${this.lastRV}) but the informer held ${held ?? 'nothing'}: a watch event was missed`);
    }
  }

  private watch(): void {
    if (this.stopped) return;
    // Streams of 1-3 minutes: each end is a reconnect from the last resourceVersion.
    const timeout = 60 + Math.floor(Math.random() * 120);
    const path = `${this.resource.path}?watch=1&allowWatchBookmarks=true&timeoutSeconds=${timeout}&resourceVersion=${this.lastRV}`;
    let gone = false;
    const stream = this.client.stream(
      path,
      this.prefer,
      (line) => {
        if (gone) return;
        const ev = JSON.parse(line) as { type: string; object: { code?: number; metadata: Meta } };
        this.recorder.watchEvent();
        if (ev.type === 'ERROR') {
          this.recorder.request('watch', 'WATCH', ev.object.code ?? 0, Date.now());
          gone = true;
          this.close?.();
          if (ev.object.code === 410) void this.relist();
          else setTimeout(() => this.watch(), 1000);
          return;
        }
        this.apply(ev.type, ev.object.metadata, stream.server);
      },
      (status) => {
        if (this.stopped) return;
        if (status !== 200) this.recorder.request('watch', 'WATCH', status, Date.now());
        if (status === 410) void this.relist();
        else setTimeout(() => this.watch(), status === 200 ? 0 : 500);
      },
    );
    this.close = stream.close;
  }

  private apply(type: string, meta: Meta, server: string): void {
    const rv = Number(meta.resourceVersion);
    if (type === 'BOOKMARK') {
      if (rv < this.lastRV) this.recorder.defect(`${this.label}: BOOKMARK at ${rv} after ${this.lastRV}`);
      else this.advance(rv);
      return;
    }
    if (rv <= this.lastRV) this.recorder.defect(`${this.label}: ${type} ${meta.name} at resourceVersion ${rv} after ${this.lastRV} already seen: a duplicate or reordered event`);
    const held = this.cache.get(meta.name);
    if (type === 'ADDED' && held !== undefined) this.recorder.defect(`${this.label}: ADDED ${meta.name} at ${rv} but it was already held at ${held}`);
    if ((type === 'MODIFIED' || type === 'DELETED') && held === undefined) this.recorder.defect(`${this.label}: ${type} ${meta.name} at ${rv} for an object it never saw added: an event was missed`);
    if (type === 'DELETED') {
      this.cache.delete(meta.name);
      this.source.delete(meta.name);
    } else {
      this.cache.set(meta.name, rv);
      this.source.set(meta.name, `${type} from ${server} (watch from ${this.lastRV})`);
    }
    if (rv > this.lastRV) this.advance(rv);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
