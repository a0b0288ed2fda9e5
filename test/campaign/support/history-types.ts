/**
 * The recorded history of issue 18's linearizability campaign: every write, read, watch event and
 * final state its clients saw, in the shape the checker (history-checker.ts) judges.
 */

/** One ConfigMap as a client saw it: what the checker compares. */
export interface ObjectState {
  readonly uid: string;
  readonly rv: string;
  readonly data: Readonly<Record<string, string>>;
}

/** The write verbs the clients use; update is a PUT, patch a merge patch. */
export type WriteKind = 'create' | 'update' | 'patch' | 'delete';

/**
 * ok: acknowledged (2xx); rejected: 409, 412 or 404, so nothing may have changed; refused: the
 * connection was never made, so nothing was sent; unknown: sent but the answer was lost (or a 5xx),
 * so the write may have been applied, at most once.
 */
export type Outcome = 'ok' | 'rejected' | 'refused' | 'unknown';

/** One write as a client sent it and what came back; times are performance.now() at send and answer. */
export interface WriteRecord {
  readonly id: number;
  readonly client: number;
  readonly server: string;
  readonly kind: WriteKind;
  readonly key: string;
  readonly start: number;
  readonly end: number;
  /** The resourceVersion (and uid, for deletes) the write was conditional on; absent for creates. */
  readonly precondition?: { readonly rv: string; readonly uid?: string };
  /** create and update: the whole data; patch: the merge patch's data (each carries a value unique to this write). */
  readonly data?: Readonly<Record<string, string>>;
  readonly outcome: Outcome;
  readonly status: number;
  /** What an acknowledged write answered: the object written, or for a delete the object deleted at the deletion's revision. */
  readonly result?: ObjectState;
  /** Why the outcome is not ok (status and body head, or the network error). */
  readonly detail?: string;
}

/**
 * One read: a GET of one key or a list of the namespace, with what it returned. A quorum read must
 * not be stale; a read from the watch cache (resourceVersion=0) may be, but must equal the state at
 * the resourceVersion it reports.
 */
export interface ReadRecord {
  readonly id: number;
  readonly quorum: boolean;
  readonly client: number;
  readonly server: string;
  readonly kind: 'get' | 'list';
  readonly key?: string;
  readonly start: number;
  readonly end: number;
  readonly status: number;
  /** get: the object returned (absent on 404). */
  readonly object?: ObjectState;
  /** list: the list's resourceVersion and its items by key. */
  readonly listRv?: string;
  readonly items?: Readonly<Record<string, ObjectState>>;
}

/** One watch event as received (BOOKMARKs carry only a resourceVersion). */
export interface EventRecord {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
  readonly key: string;
  readonly rv: string;
  readonly object?: ObjectState;
}

/**
 * One watch request of a watcher: from a list (initial state, or the relist after a 410) or resumed
 * from the last resourceVersion seen; how it ended.
 */
export interface WatchSegment {
  readonly fromRv: string;
  readonly list?: { readonly rv: string; readonly items: Readonly<Record<string, ObjectState>> };
  readonly events: EventRecord[];
  end: 'open' | 'closed' | 'expired';
}

/** A watcher on one server: its segments in order. */
export interface WatcherRecord {
  readonly name: string;
  readonly server: string;
  readonly segments: WatchSegment[];
}

/** A final state read once the writes stopped: from a server (quorum, or resourceVersion=0) or etcd. */
export interface FinalState {
  readonly source: string;
  /** The revision the state is at; absent means the latest. */
  readonly rv?: string;
  readonly items: Readonly<Record<string, ObjectState>>;
}

/** Everything the recorder collected. */
export interface History {
  readonly writes: WriteRecord[];
  readonly reads: ReadRecord[];
  readonly watchers: WatcherRecord[];
  readonly finals: FinalState[];
}
