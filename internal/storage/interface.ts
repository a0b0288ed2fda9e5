/**
 * The Storage interface: what the registry needs from a key-value store with revisions.
 * One implementation talks to etcd (etcd3/); the watch cache will wrap it and implement the same
 * interface. Objects cross this boundary as decoded JSON values whose metadata.resourceVersion is
 * the store's revision for them; the store never keeps a resourceVersion inside stored bytes.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { StorageError } from './errors.js';

/** Labels and selectable fields of an object, as a selector sees them. */
export interface ObjectAttrs {
  readonly labels: Readonly<Record<string, string>> | undefined;
  readonly fields: Readonly<Record<string, string>>;
}

/** Which objects a list or watch selects, and how it pages. */
export interface SelectionPredicate {
  /** True when every object matches (no label or field selector). */
  readonly everything: boolean;
  /** Whether obj is selected. Must not mutate obj. */
  matches(obj: KubeObject): boolean;
  /** Page size; 0 or undefined for no limit. */
  readonly limit?: number;
  /** The continue token of the previous page. */
  readonly continueToken?: string;
  /** When the predicate names one object (metadata.name=...), its name; lets a store narrow the range. */
  readonly exactName?: string;
  /** The labels and selectable fields of obj (what matches reads); lets a cache compute them once per event. */
  attrs?(obj: KubeObject): ObjectAttrs;
  /** Whether an object with these attributes is selected; the same answer as matches. */
  matchesAttrs?(attrs: ObjectAttrs): boolean;
  /** The value the field selector requires field to equal, if it does (lets a cache use an index). */
  requiredFieldValue?(field: string): string | undefined;
}

/** resourceVersionMatch as the API spells it. */
export type ResourceVersionMatch = '' | 'Exact' | 'NotOlderThan';

/** Options of getList and watch: the resourceVersion rules and the selection. */
export interface ListOptions {
  /** The resourceVersion parameter as the client sent it ("" when unset). */
  readonly resourceVersion: string;
  readonly resourceVersionMatch: ResourceVersionMatch;
  readonly predicate: SelectionPredicate;
  /** List everything under key as a prefix (a collection) rather than the one key. */
  readonly recursive: boolean;
  /** Watch only: send the current state as ADDED events first, then a bookmark ending it. */
  readonly sendInitialEvents?: boolean;
  /** Watch only: the client accepts BOOKMARK events. */
  readonly allowWatchBookmarks?: boolean;
  /**
   * Watch only, without a selector: the consumer reads each event's object itself, so a store may
   * decode it only then (throwing StorageError Corrupt from the read rather than sending an ERROR
   * event) and attach the stored value (stored-write.ts). The watch cache asks for this so that an
   * event of its own server's write is never decoded.
   */
  readonly lazyObjects?: boolean;
}

/** Options of create. */
export interface CreateOptions {
  /**
   * Seconds the key lives (kube's Storage.Create ttl): the put is bound to an etcd lease, so etcd
   * deletes the key (and watches see DELETED) when it runs out. 0 or absent: no expiry.
   */
  readonly ttlSeconds?: number;
}

/** Options of get. */
export interface GetOptions {
  /** "" for the most recent state, "0" for any, otherwise not older than this revision. */
  readonly resourceVersion: string;
}

/** One page of a list, read at one revision. */
export interface ListResult {
  readonly items: KubeObject[];
  /** The revision the list was read at. */
  readonly resourceVersion: string;
  /** A token for the next page; absent on the last one. */
  readonly continueToken?: string;
  /** How many items follow this page; only when paging without selectors and more remain. */
  readonly remainingItemCount?: number;
  /**
   * When the list came from the watch cache: each item's JSON (see encoded.ts), parallel to items.
   * A JSON response in the stored version writes these bytes and never touches items, which the
   * cache then decodes only if someone reads them.
   */
  readonly encodedItems?: readonly Buffer[];
  /** Each item's storage key (as given to the store), parallel to items, when the store knows them. */
  readonly keys?: readonly string[];
}

/** Conditions a delete or update must meet against the current object. */
export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/** The result of a tryUpdate: the new object to store, or the current one unchanged. */
export type UpdateFunction = (current: KubeObject) => KubeObject | Promise<KubeObject>;

/** Options of guaranteedUpdate. */
export interface GuaranteedUpdateOptions {
  /** When the key is missing, call tryUpdate with an empty object rather than failing NotFound. */
  readonly ignoreNotFound: boolean;
  readonly preconditions?: Preconditions;
  /**
   * Computes the object to store from the current one. Called again with fresh state whenever the
   * compare-and-swap loses a race, so it must be free of side effects other than its result.
   * Throwing aborts the update with that error. Returning an object deep-equal to the current one
   * (resourceVersion aside) writes nothing.
   */
  readonly tryUpdate: UpdateFunction;
  /** A recent copy of the object (e.g. from a cache) to try first instead of reading it. */
  readonly cachedExisting?: KubeObject;
  /** Seconds the written key lives (see CreateOptions.ttlSeconds); each write renews the expiry. */
  readonly ttlSeconds?: number;
}

/** Options of delete. */
export interface DeleteOptions {
  readonly preconditions?: Preconditions;
  /** Checked against the current object before deleting; throwing aborts the delete. */
  readonly validateDeletion?: (current: KubeObject) => void | Promise<void>;
  readonly cachedExisting?: KubeObject;
}

/** A watch event as the storage layer emits it. */
export type StorageWatchEvent =
  | {
      readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
      readonly object: KubeObject;
      /** The object's storage key (as given to the store), when the store knows it; never on bookmarks. */
      readonly key?: string;
    }
  | { readonly type: 'ERROR'; readonly error: StorageError };

/** A running watch: an async iterable of events, ended by stop(), by the store, or by an ERROR. */
export interface StorageWatch extends AsyncIterable<StorageWatchEvent> {
  /** Ends the watch; the iterator finishes. Idempotent. */
  stop(): void;
  /**
   * The next event already buffered, without waiting (undefined when none is): a consumer that
   * is behind writes several events at once. Same queue as the iterator; one consumer only.
   */
  takeReady?(): StorageWatchEvent | undefined;
}

/** A key-value store with revisions, compare-and-swap writes and watches. */
export interface Storage {
  /** Creates key; throws StorageError KeyExists when it is there. Returns the stored object with its resourceVersion. */
  create(key: string, obj: KubeObject, opts?: CreateOptions): Promise<KubeObject>;
  /** Reads key; throws NotFound, TooLargeResourceVersion. */
  get(key: string, opts: GetOptions): Promise<KubeObject>;
  /** Lists under key with the resourceVersion rules of opts; throws Expired, TooLargeResourceVersion, InvalidArgument. */
  getList(key: string, opts: ListOptions): Promise<ListResult>;
  /** Read-modify-write with compare-and-swap, retried on conflict. */
  guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions): Promise<KubeObject>;
  /** Deletes key if preconditions hold; returns the last state with the deletion's revision as resourceVersion. */
  delete(key: string, opts: DeleteOptions): Promise<KubeObject>;
  /**
   * Watches key (or the prefix when recursive) from opts.resourceVersion. Rejects, before any
   * event, with Expired when that revision was compacted and TooLargeResourceVersion when it is
   * in the future; once running, a compaction arrives as an ERROR event that ends the watch.
   */
  watch(key: string, opts: ListOptions): Promise<StorageWatch>;
  /** The store's current revision, read with a quorum. */
  currentRevision(): Promise<string>;
  /** Resolves when the store answers; rejects with Unreachable otherwise. */
  readinessCheck(): Promise<void>;
  /**
   * The storage to use for one resource whose keys live under keyPrefix (the watch cache gives
   * each resource its own cache). Stores without such a notion do not implement it.
   */
  forResource?(resource: { readonly group: string; readonly resource: string }, keyPrefix: string): Storage;
  /**
   * Lets go of what forResource made for a resource that is no longer served (a deleted custom
   * resource definition): its watch cache stops, ending its watches. A later forResource for the
   * same resource starts afresh. Stores without per-resource state do not implement it.
   */
  releaseResource?(resource: { readonly group: string; readonly resource: string }, keyPrefix: string): void;
}
