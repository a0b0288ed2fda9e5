/**
 * An informer: a local, eventually consistent copy of one resource kept by a list and a watch
 * through the resource's RestStorage (so it reads the watch cache), as client-go's shared informer
 * keeps one. Authorizers (RBAC, Node), authenticators (bootstrap tokens) and controllers read it
 * instead of asking storage per request. A watch that ends or expires is resumed, or, when its
 * version is gone, replaced by a fresh list whose differences are delivered as events.
 */
import type { KubeObject } from '../../api/meta/types.js';
import { hasReason } from '../apierrors/status-error.js';
import type { Logger } from '../observability/logging.js';
import { listEverything, type ListOptions, type RestStorage } from '../registry/interface.js';
import { internalContext } from '../request/context.js';
import type { FieldSelector } from '../selectors/fields.js';

/** What an informer tells its handlers. Handlers run synchronously, in event order, and must not throw. */
export interface InformerHandlers {
  added?(obj: KubeObject): void;
  updated?(obj: KubeObject, old: KubeObject): void;
  deleted?(obj: KubeObject): void;
  /**
   * A relist replaced the copy (after the watch could not resume). With `keep`, deletions of
   * objects the informer did not keep happened unseen if they happened while it was not watching.
   */
  relisted?(): void;
}

/** Which resource an informer follows. */
export interface InformerOptions {
  readonly storage: RestStorage;
  readonly group?: string;
  readonly resource: string;
  readonly log: Logger;
  /** Pause before retrying after a failed list or watch (default 1 s). */
  readonly retryMs?: number;
  /**
   * Applied to every object before it is kept and handed to handlers (e.g. keep metadata only,
   * as client-go's metadata informers do); must keep metadata.resourceVersion. Default: as is.
   */
  readonly transform?: (obj: KubeObject) => KubeObject;
  /** Only the objects this field selector matches (as a client's `fieldSelector`); default: every object. */
  readonly fieldSelector?: FieldSelector;
  /**
   * Which objects the informer keeps a copy of (default: every one). The others are still handed
   * to handlers, as added (never updated: there is no old copy), and deleted when their DELETED
   * event comes; get() and list() do not know them.
   */
  readonly keep?: (obj: KubeObject) => boolean;
}


/** The key of an object in an informer: "<namespace>/<name>", or "<name>" for cluster objects. */
export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata.namespace;
  return ns ? `${ns}/${obj.metadata.name ?? ''}` : (obj.metadata.name ?? '');
}

/** Follows one resource; start() it, read it once synced. */
export class Informer {
  private readonly items = new Map<string, KubeObject>();
  private readonly handlers: InformerHandlers[] = [];
  private stopped = false;
  private started = false;
  private stopWatch: (() => void) | undefined;
  private resolveSynced!: () => void;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Resolves after the first complete list has been loaded (and its handlers called). */
  readonly synced: Promise<void>;
  private isSynced = false;

  constructor(private readonly options: InformerOptions) {
    this.synced = new Promise((resolve) => (this.resolveSynced = resolve));
  }

  /** Adds handlers; objects already known are delivered to added() at once. */
  addHandlers(h: InformerHandlers): void {
    this.handlers.push(h);
    if (h.added) for (const obj of this.items.values()) h.added(obj);
  }

  /** Starts listing and watching; returns at once. Idempotent. */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.run();
  }

  /** Stops the watch; the copy stays readable but is no longer updated. */
  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.stopWatch?.();
  }

  /** Whether the first list was loaded. */
  hasSynced(): boolean {
    return this.isSynced;
  }

  /** The object under key ("<namespace>/<name>" or "<name>"). Never mutate it. */
  get(key: string): KubeObject | undefined {
    return this.items.get(key);
  }

  /** Every object. Never mutate them. */
  list(): IterableIterator<KubeObject> {
    return this.items.values();
  }

  private async run(): Promise<void> {
    let resourceVersion = '';
    while (!this.stopped) {
      try {
        if (!resourceVersion) resourceVersion = await this.relist();
        resourceVersion = await this.watchFrom(resourceVersion);
      } catch (err) {
        if (this.stopped) return;
        resourceVersion = '';
        // A version that fell out of the window (410) needs a fresh list, not a pause.
        if (hasReason(err, 'Expired') || hasReason(err, 'Gone')) continue;
        this.options.log.warn(`informer ${this.describe()}: ${(err as Error).message}; retrying`);
        await new Promise<void>((resolve) => {
          this.retryTimer = setTimeout(resolve, this.options.retryMs ?? 1000);
          this.retryTimer.unref();
        });
      }
    }
  }

  private describe(): string {
    return this.options.group ? `${this.options.resource}.${this.options.group}` : this.options.resource;
  }

  private listOptions(): ListOptions {
    return this.options.fieldSelector ? { ...listEverything, fieldSelector: this.options.fieldSelector } : listEverything;
  }

  private ctx(verb: string) {
    return internalContext({ verb, group: this.options.group ?? '', resource: this.options.resource });
  }

  /** Lists everything and replaces the copy, delivering the differences; returns the list's version. */
  private async relist(): Promise<string> {
    const s = this.options.storage;
    if (!s.list) throw new Error('storage cannot list');
    const list = await s.list(this.ctx('list'), this.listOptions());
    const seen = new Set<string>();
    for (const obj of list.items) {
      const key = objectKey(obj);
      seen.add(key);
      this.apply(key, this.options.transform ? this.options.transform(obj) : obj);
    }
    for (const [key, old] of this.items) {
      if (!seen.has(key)) {
        this.items.delete(key);
        for (const h of this.handlers) h.deleted?.(old);
      }
    }
    if (this.isSynced) for (const h of this.handlers) h.relisted?.();
    if (!this.isSynced) {
      this.isSynced = true;
      this.resolveSynced();
    }
    return list.resourceVersion;
  }

  private apply(key: string, obj: KubeObject): void {
    const old = this.items.get(key);
    if (old && old.metadata.resourceVersion === obj.metadata.resourceVersion) return;
    if (this.options.keep && !this.options.keep(obj)) this.items.delete(key);
    else this.items.set(key, obj);
    for (const h of this.handlers) {
      if (old) h.updated?.(obj, old);
      else h.added?.(obj);
    }
  }

  /** Watches from resourceVersion until the watch ends; returns the version to resume from ("" to relist). */
  private async watchFrom(resourceVersion: string): Promise<string> {
    const s = this.options.storage;
    if (!s.watch) throw new Error('storage cannot watch');
    const watch = await s.watch(this.ctx('watch'), { ...this.listOptions(), watch: true, resourceVersion, allowWatchBookmarks: true });
    this.stopWatch = () => watch.stop();
    if (this.stopped) watch.stop();
    let rv = resourceVersion;
    for await (const ev of watch) {
      if (ev.type === 'ERROR') return '';
      rv = ev.object.metadata.resourceVersion ?? rv;
      if (ev.type === 'BOOKMARK') continue;
      const key = objectKey(ev.object);
      if (ev.type === 'DELETED') {
        const old = this.items.get(key);
        this.items.delete(key);
        for (const h of this.handlers) h.deleted?.(old ?? (this.options.transform ? this.options.transform(ev.object) : ev.object));
      } else {
        this.apply(key, this.options.transform ? this.options.transform(ev.object) : ev.object);
      }
    }
    return rv;
  }
}
