/**
 * The etcd3 implementation of Storage. Every write is one compare-and-swap transaction on
 * mod_revision (0 for create), the only transaction shapes kube-apiserver emits, so the store also
 * runs on etcd-compatible servers such as kine. Keys are `<prefix><key>`; revisions stay decimal
 * strings outside this folder.
 */
import { performance } from 'node:perf_hooks';
import type { Etcd3, IKeyValue, Watcher } from 'etcd3';
import type { KubeObject } from '../../../api/meta/types.js';
import type { StorageCodec } from '../codec.js';
import { decodeContinue, encodeContinue } from '../continue-token.js';
import { StorageError } from '../errors.js';
import type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  GuaranteedUpdateOptions,
  ListOptions,
  ListResult,
  Preconditions,
  Storage,
  StorageWatch,
} from '../interface.js';
import type { GroupResource, TransformerSlot, TransformerSource } from '../value/resource-transformers.js';
import { interpretEtcdError, isCompacted, isFutureRevision } from './errors.js';
import type { WireRangeRequest, WireRangeResponse, WireTxnResponse } from './kv-wire.js';
import { LeanKv } from './lean-kv.js';
import { LeaseManager } from './lease-manager.js';
import type { EtcdInstrument } from './instrument.js';
import type { EtcdOperation, EtcdRequestObserver } from './observer.js';
import { parseResourceVersion, prefixEnd } from './revision.js';
import { StoredValues } from './stored-values.js';
import { attachStoredWrite } from '../stored-write.js';
import { startWatch } from './watcher.js';

/** The largest page etcd is asked for while filling a selective page (kube's maxLimit). */
const maxLimit = 10000;

const expiredList = 'The resourceVersion for the provided list is too old.';
const inconsistentContinue =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list ' +
  'without the continue parameter, or use the continue token in this response to retrieve the remainder of the ' +
  'results. Continuing with the provided token results in an inconsistent list - objects that were created, ' +
  'modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** Options of the etcd3 store. */
export interface Etcd3StoreOptions {
  /** The --etcd-prefix, e.g. "/registry"; keys given to the store are appended to it. */
  readonly prefix: string;
  readonly codec: StorageCodec;
  /** Per-call deadline in milliseconds for etcd requests (reads and writes). */
  readonly callTimeoutMs?: number;
  /** How often a watch that allows bookmarks gets one (kube: about a minute). */
  readonly bookmarkIntervalMs?: number;
  /**
   * Runs on every object decoded from etcd (kube defaults objects as it decodes them from
   * storage, so fields added by newer defaulting, or lost by an encoding, are filled in). Mutates obj.
   */
  readonly onDecode?: (obj: KubeObject) => void;
  /**
   * Encryption at rest: each resource's value transformer (--encryption-provider-config).
   * Without it every value is stored as it is, and one that carries an encryption prefix is
   * refused on read (kube's identity transformer).
   */
  readonly transformers?: TransformerSource;
  /** Opens a span around every Range and Txn call (tracing; composeEtcdInstruments for several). */
  readonly instrument?: EtcdInstrument;
  /** Told of every etcd request, timed (metrics); see observer.ts. */
  readonly observe?: EtcdRequestObserver;
  /** --lease-reuse-duration-seconds: how long keys written with a TTL share one etcd lease (default 60). */
  readonly leaseReuseSeconds?: number;
}

interface Current {
  readonly obj: KubeObject | undefined;
  /** The plaintext (decrypted) bytes of obj. */
  readonly data: Buffer | undefined;
  readonly rev: bigint;
  /** Written by a provider or key that no longer writes: an update rewrites it even if unchanged. */
  readonly stale: boolean;
}

/** Storage backed by etcd through the etcd3 client. Stateless apart from the client. */
export class Etcd3Store implements Storage {
  private readonly prefix: string;
  private readonly codec: StorageCodec;
  private readonly callTimeoutMs: number;
  private readonly bookmarkIntervalMs: number | undefined;
  private readonly onDecode: ((obj: KubeObject) => void) | undefined;
  private readonly instrument: EtcdInstrument | undefined;
  /** Values through that transformer. */
  private readonly values: StoredValues;
  /** The per-resource views of the root store, by key prefix. */
  private readonly views = new Map<string, Etcd3Store>();
  /** The resource of a view ("pods", "deployments.apps"), kube's etcd metrics "type"; "" on the root store. */
  private readonly type: string;
  private readonly observe: EtcdRequestObserver | undefined;
  /** Leases of keys written with a TTL; shared by the views of one store, as kube's store has one. */
  private readonly leases: LeaseManager;
  /** The Txn and Range calls (shared by the views of one store). */
  private readonly kv: LeanKv;

  /** view is internal: forResource gives each resource a view of the store with its transformer. */
  constructor(
    private readonly client: Etcd3,
    private readonly options: Etcd3StoreOptions,
    private readonly view?: { readonly slot: TransformerSlot | undefined; readonly type: string; readonly keyPrefix: string; readonly leases: LeaseManager; readonly kv: LeanKv },
  ) {
    const slot = view?.slot;
    this.prefix = options.prefix.replace(/\/+$/, '');
    this.codec = options.codec;
    this.callTimeoutMs = options.callTimeoutMs ?? 60_000;
    this.bookmarkIntervalMs = options.bookmarkIntervalMs;
    this.onDecode = options.onDecode;
    this.instrument = options.instrument;
    this.values = new StoredValues(slot);
    this.type = view?.type ?? '';
    this.observe = options.observe;
    this.leases = view?.leases ?? new LeaseManager(client, options.leaseReuseSeconds ?? 60);
    this.kv = view?.kv ?? new LeanKv(client);
  }

  /**
   * The store as one resource uses it: a view (the same for the same key prefix) whose requests
   * are labelled with the resource and whose values go through the resource's transformer when
   * encryption at rest is configured.
   */
  forResource(gr: GroupResource, keyPrefix: string): Etcd3Store {
    if (this.view) return this;
    let view = this.views.get(keyPrefix);
    if (!view) {
      const type = gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
      view = new Etcd3Store(this.client, this.options, { slot: this.options.transformers?.slotFor(gr), type, keyPrefix, leases: this.leases, kv: this.kv });
      this.views.set(keyPrefix, view);
    }
    return view;
  }

  /** Every resource a view was made for: its resource ("pods", "deployments.apps") and key prefix. */
  resources(): Array<{ readonly resource: string; readonly keyPrefix: string }> {
    return [...this.views.values()].map((v) => ({ resource: v.type, keyPrefix: v.view?.keyPrefix ?? '' }));
  }

  /**
   * How many keys live under the prefix key (kube's Count, for apiserver_storage_objects): one
   * count-only range, observed as listWithCount with the prefix as its type.
   */
  async count(key: string): Promise<number> {
    const full = this.fullKey(key);
    const keyPrefix = full.endsWith('/') ? full : `${full}/`;
    const start = this.observe ? performance.now() : 0;
    try {
      const res = await this.kv.range({ key: Buffer.from(keyPrefix), rangeEnd: prefixEnd(keyPrefix), countOnly: true }, this.callOptions());
      this.observe?.('listWithCount', keyPrefix, start, undefined);
      return Number(res.count);
    } catch (err) {
      this.observe?.('listWithCount', keyPrefix, start, err);
      throw interpretEtcdError(err, full);
    }
  }

  private fullKey(key: string): string {
    return this.prefix + (key.startsWith('/') ? key : `/${key}`);
  }

  private callOptions(): { deadline: Date } {
    return { deadline: new Date(Date.now() + this.callTimeoutMs) };
  }

  /**
   * The object in kv. withKey: a transform failure names the key (kube does so in lists and
   * watches; a get names only the reason).
   */
  private decode(kv: IKeyValue, withKey = false): KubeObject {
    const key = kv.key.toString();
    const obj = this.codec.decode(key, this.values.read(kv.value, key, withKey).data);
    this.onDecode?.(obj);
    obj.metadata.resourceVersion = kv.mod_revision;
    return obj;
  }

  private async range(op: EtcdOperation, key: string, extra: Omit<WireRangeRequest, 'key'> = {}): Promise<WireRangeResponse> {
    const done = this.instrument?.start('Range', key);
    const start = this.observe ? performance.now() : 0;
    try {
      const res = await this.kv.range({ key: Buffer.from(key), ...extra }, this.callOptions());
      done?.();
      this.observe?.(op, this.type, start, undefined);
      return res;
    } catch (err) {
      done?.(err);
      this.observe?.(op, this.type, start, err);
      throw err instanceof StorageError || isCompacted(err) || isFutureRevision(err) ? err : interpretEtcdError(err, key);
    }
  }

  /** The lease a put with ttlSeconds is bound to ('0': none), granted or reused before the transaction. */
  private async leaseFor(ttlSeconds: number | undefined): Promise<string> {
    if (!ttlSeconds || ttlSeconds <= 0) return '0';
    return await this.leases.getLease(Math.max(1, Math.round(ttlSeconds)));
  }

  private async txn(key: string, modRevision: bigint, success: 'put' | 'delete', value?: Buffer, lease = '0'): Promise<WireTxnResponse> {
    const op: EtcdOperation = success === 'delete' ? 'delete' : modRevision === 0n ? 'create' : 'update';
    const start = this.observe ? performance.now() : 0;
    const done = this.instrument?.start('Txn', key);
    try {
      const res = await this.kv.txn(
        { key: Buffer.from(key), modRevision, ...(success === 'put' ? { put: { value: value as Buffer, lease } } : {}) },
        this.callOptions(),
      );
      done?.();
      this.observe?.(op, this.type, start, undefined);
      return res;
    } catch (err) {
      done?.(err);
      this.observe?.(op, this.type, start, err);
      throw interpretEtcdError(err, key);
    }
  }

  private async currentFromRange(res: WireRangeResponse | undefined): Promise<Current> {
    const kv = res?.kvs[0];
    if (!kv) return { obj: undefined, data: undefined, rev: 0n, stale: false };
    const pending = this.values.prepare(res.kvs);
    if (pending) await pending;
    const key = kv.key.toString();
    const { data, stale } = this.values.read(kv.value, key, false);
    const obj = this.codec.decode(key, data);
    this.onDecode?.(obj);
    obj.metadata.resourceVersion = kv.mod_revision;
    return { obj, data, rev: BigInt(kv.mod_revision), stale };
  }

  private async readCurrent(key: string): Promise<Current> {
    return await this.currentFromRange(await this.range('get', key));
  }

  async create(key: string, obj: KubeObject, opts: CreateOptions = {}): Promise<KubeObject> {
    const full = this.fullKey(key);
    if (obj.metadata.resourceVersion) {
      throw new StorageError('InvalidArgument', full, 'resourceVersion should not be set on objects to be created');
    }
    const data = this.codec.encode(obj);
    const lease = await this.leaseFor(opts.ttlSeconds);
    const value = this.values.seal(data, full);
    const res = await this.txn(full, 0n, 'put', value, lease);
    if (!res.succeeded) throw new StorageError('KeyExists', full, `key ${full} already exists`);
    const out = this.codec.decode(full, data);
    this.onDecode?.(out);
    out.metadata.resourceVersion = res.header.revision;
    return attachStoredWrite(out, value);
  }

  async get(key: string, opts: GetOptions): Promise<KubeObject> {
    const full = this.fullKey(key);
    const minRev = parseResourceVersion(opts.resourceVersion);
    const res = await this.range('get', full);
    if (minRev > 0n && BigInt(res.header.revision) < minRev) {
      throw tooLarge(full, minRev, res.header.revision);
    }
    const kv = res.kvs[0];
    if (!kv) throw new StorageError('NotFound', full, `key ${full} not found`);
    const pending = this.values.prepare(res.kvs);
    if (pending) await pending;
    return this.decode(kv);
  }

  async getList(key: string, opts: ListOptions): Promise<ListResult> {
    const full = this.fullKey(key);
    const keyPrefix = opts.recursive && !full.endsWith('/') ? `${full}/` : full;
    const pred = opts.predicate;
    const limit = pred.limit && pred.limit > 0 ? pred.limit : 0;
    const paging = limit > 0;

    let withRev = 0n;
    let minRev = 0n;
    let startKey = keyPrefix;
    const continuing = Boolean(pred.continueToken);
    if (pred.continueToken) {
      const pos = decodeContinue(pred.continueToken, keyPrefix);
      startKey = pos.startKey;
      withRev = pos.revision > 0n ? pos.revision : 0n;
    } else {
      const rv = parseResourceVersion(opts.resourceVersion);
      switch (opts.resourceVersionMatch) {
        case 'Exact':
          withRev = rv;
          break;
        case 'NotOlderThan':
          minRev = rv;
          break;
        default:
          if (rv > 0n) {
            if (paging) withRev = rv;
            else minRev = rv;
          }
      }
    }

    if (!opts.recursive) return await this.listOne(full, withRev, minRev, pred.matches.bind(pred));

    const end = prefixEnd(keyPrefix);
    const items: KubeObject[] = [];
    const keys: string[] = [];
    let batch = limit;
    let lastKey: string | undefined;
    let hasMore = false;
    let firstCount = 0n;
    let firstFetched = 0;
    let first = true;
    for (;;) {
      let res: WireRangeResponse;
      try {
        res = await this.range('list', startKey, { rangeEnd: end, limit: batch, revision: withRev });
      } catch (err) {
        throw await this.listError(err, full, keyPrefix, startKey, continuing, withRev);
      }
      if (first) {
        if (minRev > 0n && BigInt(res.header.revision) < minRev) throw tooLarge(full, minRev, res.header.revision);
        firstCount = BigInt(res.count);
        firstFetched = res.kvs.length;
        first = false;
      }
      hasMore = res.more;
      if (res.kvs.length === 0 && res.more) {
        throw new StorageError('Unreachable', full, 'no results were found, but etcd indicated there were more values remaining');
      }
      const pending = this.values.prepare(res.kvs);
      if (pending) await pending;
      for (const kv of res.kvs) {
        if (paging && items.length >= limit) {
          hasMore = true;
          break;
        }
        lastKey = kv.key.toString();
        const obj = this.decode(kv, true);
        if (pred.everything || pred.matches(obj)) {
          items.push(obj);
          keys.push(lastKey.slice(this.prefix.length));
        }
      }
      if (withRev === 0n) withRev = BigInt(res.header.revision);
      if (!hasMore || !paging) break;
      if (items.length >= limit) break;
      if (batch < maxLimit) batch = Math.min(batch * 2, maxLimit);
      startKey = `${lastKey}\x00`;
    }

    if (hasMore && lastKey !== undefined) {
      const continueToken = encodeContinue(`${lastKey}\x00`, keyPrefix, withRev);
      // etcd's count includes objects a selector would drop, so it is only given without one.
      const remaining = pred.everything ? Number(firstCount) - Math.min(firstFetched, limit) : undefined;
      return {
        items,
        keys,
        resourceVersion: withRev.toString(),
        continueToken,
        ...(remaining !== undefined ? { remainingItemCount: remaining } : {}),
      };
    }
    return { items, keys, resourceVersion: withRev.toString() };
  }

  private async listOne(full: string, withRev: bigint, minRev: bigint, matches: (o: KubeObject) => boolean): Promise<ListResult> {
    let res: WireRangeResponse;
    try {
      res = await this.range('get', full, { revision: withRev });
    } catch (err) {
      throw await this.listError(err, full, full, full, false, withRev);
    }
    if (minRev > 0n && BigInt(res.header.revision) < minRev) throw tooLarge(full, minRev, res.header.revision);
    const items: KubeObject[] = [];
    const keys: string[] = [];
    const kv = res.kvs[0];
    if (kv) {
      const pending = this.values.prepare(res.kvs);
      if (pending) await pending;
      const obj = this.decode(kv, true);
      if (matches(obj)) {
        items.push(obj);
        keys.push(full.slice(this.prefix.length));
      }
    }
    return { items, keys, resourceVersion: (withRev || BigInt(res.header.revision)).toString() };
  }

  private async listError(err: unknown, full: string, keyPrefix: string, startKey: string, continuing: boolean, withRev: bigint): Promise<StorageError> {
    if (isCompacted(err)) {
      if (continuing) {
        return new StorageError('Expired', full, inconsistentContinue, encodeContinue(startKey, keyPrefix, -1n));
      }
      return new StorageError('Expired', full, expiredList);
    }
    if (isFutureRevision(err)) return tooLarge(full, withRev, await this.currentRevision());
    return interpretEtcdError(err, full);
  }

  async guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions): Promise<KubeObject> {
    const full = this.fullKey(key);
    let current: Current;
    let fromCache = false;
    if (opts.cachedExisting?.metadata.resourceVersion) {
      const cached = opts.cachedExisting;
      // Never mutated nor returned (a no-op on a cached copy re-reads etcd), so not copied either:
      // tryUpdate gets a copy of its own below.
      current = { obj: cached, data: this.codec.encode(cached), rev: BigInt(cached.metadata.resourceVersion as string), stale: false };
      fromCache = true;
    } else {
      current = await this.readCurrent(full);
    }
    for (;;) {
      if (!current.obj && !opts.ignoreNotFound) throw new StorageError('NotFound', full, `key ${full} not found`);
      try {
        if (current.obj) checkPreconditions(full, opts.preconditions, current.obj);
      } catch (err) {
        if (fromCache) {
          // A stale cached copy may fail a precondition the stored object meets.
          current = await this.readCurrent(full);
          fromCache = false;
          continue;
        }
        throw err;
      }
      const input: KubeObject = current.obj ? current.obj : { metadata: {} };
      let updated: KubeObject;
      try {
        updated = await opts.tryUpdate(structuredClone(input));
      } catch (err) {
        if (fromCache) {
          // The update refused a cached copy (a resourceVersion the client read from a newer
          // state, say): it may accept the stored object, so read that and try again, as kube does.
          current = await this.readCurrent(full);
          fromCache = false;
          continue;
        }
        throw err;
      }
      const data = this.codec.encode(updated);
      // A stale value is rewritten even when unchanged: that is how a key rotation reaches it.
      if (current.obj && current.data && !current.stale && data.equals(current.data)) {
        if (fromCache) {
          current = await this.readCurrent(full);
          fromCache = false;
          continue;
        }
        return current.obj;
      }
      const lease = await this.leaseFor(opts.ttlSeconds);
      const value = this.values.seal(data, full);
      const res = await this.txn(full, current.rev, 'put', value, lease);
      if (!res.succeeded) {
        current = await this.currentFromRange(res.responses[0]?.response_range);
        fromCache = false;
        continue;
      }
      const out = this.codec.decode(full, data);
      this.onDecode?.(out);
      out.metadata.resourceVersion = res.header.revision;
      return attachStoredWrite(out, value);
    }
  }

  async delete(key: string, opts: DeleteOptions): Promise<KubeObject> {
    const full = this.fullKey(key);
    let current: Current = opts.cachedExisting?.metadata.resourceVersion
      ? {
          obj: structuredClone(opts.cachedExisting),
          data: undefined,
          rev: BigInt(opts.cachedExisting.metadata.resourceVersion),
          stale: false,
        }
      : await this.readCurrent(full);
    let fromCache = Boolean(opts.cachedExisting?.metadata.resourceVersion);
    for (;;) {
      if (!current.obj) throw new StorageError('NotFound', full, `key ${full} not found`);
      try {
        checkPreconditions(full, opts.preconditions, current.obj);
        await opts.validateDeletion?.(current.obj);
      } catch (err) {
        if (fromCache) {
          current = await this.readCurrent(full);
          fromCache = false;
          continue;
        }
        throw err;
      }
      const res = await this.txn(full, current.rev, 'delete');
      if (!res.succeeded) {
        current = await this.currentFromRange(res.responses[0]?.response_range);
        fromCache = false;
        continue;
      }
      const out = current.obj;
      out.metadata.resourceVersion = res.header.revision;
      return out;
    }
  }

  async watch(key: string, opts: ListOptions): Promise<StorageWatch> {
    const full = this.fullKey(key);
    const keyPrefix = opts.recursive && !full.endsWith('/') ? `${full}/` : full;
    const start = this.observe ? performance.now() : 0;
    this.kv.prepare();
    try {
      const watch = await startWatch({
        client: this.client,
        store: this,
        key,
        fullKey: full,
        keyPrefix,
        opts,
        decode: (kv) => this.decode(kv, true),
        prepare: (events) => this.values.prepareEvents(events),
        relativeKey: (kv) => kv.key.toString().slice(this.prefix.length),
        checkRevisionAvailable: (rev) => this.checkRevisionAvailable(full, rev),
        ...(this.bookmarkIntervalMs ? { bookmarkIntervalMs: this.bookmarkIntervalMs } : {}),
        track: this.watchTracker,
      });
      this.observe?.('watch', this.type, start, undefined);
      return watch;
    } catch (err) {
      this.observe?.('watch', this.type, start, err);
      throw err;
    }
  }

  /** etcd watchers not yet cancelled, and cancellations in flight. */
  private readonly liveWatchers = new Set<Watcher>();
  private readonly cancelling = new Set<Promise<unknown>>();
  private readonly watchTracker = {
    created: (w: Watcher): void => {
      this.liveWatchers.add(w);
    },
    cancelled: (w: Watcher, done: Promise<unknown>): void => {
      this.liveWatchers.delete(w);
      this.cancelling.add(done);
      void done.finally(() => this.cancelling.delete(done));
    },
  };

  /**
   * Cancels every etcd watch this store still has and waits (up to timeoutMs) for etcd to confirm.
   * Call before closing the client: the etcd3 library reconnects (forever, on timers that keep the
   * process alive) a watch stream that breaks under a watcher it still has.
   */
  async closeWatches(timeoutMs = 2000): Promise<void> {
    if (this.views.size > 0) await Promise.all([...this.views.values()].map((v) => v.closeWatches(timeoutMs)));
    for (const w of [...this.liveWatchers]) this.watchTracker.cancelled(w, w.cancel().catch(() => undefined));
    if (this.cancelling.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.cancelling]), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
  }

  /**
   * Throws Expired when revision was compacted away and TooLargeResourceVersion when the store has
   * not reached revision - 1 yet (a watch from revision starts right after revision - 1).
   */
  private async checkRevisionAvailable(full: string, revision: bigint): Promise<void> {
    let res: WireRangeResponse;
    try {
      res = await this.range('get', full, { revision: revision - 1n > 0n ? revision - 1n : 0n, countOnly: true });
    } catch (err) {
      if (isCompacted(err)) throw new StorageError('Expired', full, 'The resourceVersion for the provided watch is too old.');
      if (isFutureRevision(err)) throw tooLarge(full, revision - 1n, await this.currentRevision());
      throw interpretEtcdError(err, full);
    }
    // Reading at revision-1 only proves revision-1 exists; the watch itself starts at revision.
    void res;
  }

  /**
   * What a watch cache needs to prove it is current for a prefix without reading it: the revision
   * now, how many keys the prefix holds, and the highest mod revision among them (one keys-only
   * range sorted by mod revision, limit 1).
   */
  async prefixState(key: string): Promise<{ revision: bigint; count: number; maxModRevision: bigint }> {
    const full = this.fullKey(key);
    const keyPrefix = full.endsWith('/') ? full : `${full}/`;
    let res: WireRangeResponse;
    const done = this.instrument?.start('Range', keyPrefix);
    try {
      res = await this.kv.range(
        { key: Buffer.from(keyPrefix), rangeEnd: prefixEnd(keyPrefix), limit: 1, keysOnly: true, sortTarget: 'Mod', sortOrder: 'Descend' },
        this.callOptions(),
      );
      done?.();
    } catch (err) {
      done?.(err);
      throw interpretEtcdError(err, full);
    }
    const top = res.kvs[0];
    return { revision: BigInt(res.header.revision), count: Number(res.count), maxModRevision: top ? BigInt(top.mod_revision) : 0n };
  }

  /** Whether revision has been compacted away (a read at it would be Expired). */
  async isCompacted(revision: bigint): Promise<boolean> {
    try {
      await this.range('list', this.fullKey('/'), { countOnly: true, revision });
      return false;
    } catch (err) {
      if (isCompacted(err)) return true;
      throw err instanceof StorageError ? err : interpretEtcdError(err, this.fullKey('/'));
    }
  }

  async currentRevision(): Promise<string> {
    const res = await this.range('list', this.fullKey('/'), { countOnly: true, limit: 1 });
    return res.header.revision;
  }

  async readinessCheck(): Promise<void> {
    await this.currentRevision();
  }
}

function tooLarge(key: string, requested: bigint, current: string): StorageError {
  return new StorageError('TooLargeResourceVersion', key, `Too large resource version: ${requested}, current: ${current}`, undefined, {
    requested: requested.toString(),
    current,
  });
}

function checkPreconditions(key: string, pre: Preconditions | undefined, obj: KubeObject): void {
  if (!pre) return;
  if (pre.uid !== undefined && pre.uid !== obj.metadata.uid) {
    throw new StorageError(
      'InvalidObj',
      key,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`,
    );
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== obj.metadata.resourceVersion) {
    throw new StorageError(
      'InvalidObj',
      key,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`,
    );
  }
}
