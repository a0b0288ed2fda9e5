/**
 * The linearizability campaign's witness below the API servers: a watch on etcd itself, from a
 * direct range read, recorded as one more watcher. It shows the revision of every delete (kube
 * answers a ConfigMap delete with a Status, not the object at its deletion revision) and holds etcd's
 * own log to the same no-gap, no-duplicate rule as the API servers' watches.
 */
import type { Etcd3, IKeyValue, Watcher as EtcdWatcher } from 'etcd3';
import { decodeStored } from '../../../internal/storage/codec.js';
import type { ObjectState, WatcherRecord, WatchSegment } from './history-types.js';

/** A running etcd witness: its record and the last revision it saw. */
export interface EtcdWitness {
  readonly record: WatcherRecord;
  lastRv(): bigint;
  stop(): Promise<void>;
}

function stateOf(kv: IKeyValue, rv: string): ObjectState {
  const obj = decodeStored(kv.key.toString('utf8'), kv.value) as { metadata: { uid?: string }; data?: Record<string, string> };
  return { uid: obj.metadata.uid ?? '', rv, data: obj.data ?? {} };
}

/** Lists the ConfigMaps of ns in etcd and watches them from that revision on, with previous values. */
export async function startEtcdWitness(client: Etcd3, ns: string, keep: (name: string) => boolean): Promise<EtcdWitness> {
  const prefix = `/registry/configmaps/${ns}/`;
  const res = await client.kv.range({ key: Buffer.from(prefix), range_end: Buffer.from(`${prefix.slice(0, -1)}0`) });
  const rev = String(res.header.revision);
  const items: Record<string, ObjectState> = {};
  for (const kv of res.kvs) {
    const name = kv.key.toString('utf8').slice(prefix.length);
    if (keep(name)) items[name] = stateOf(kv, String(kv.mod_revision));
  }
  const segment: WatchSegment = { fromRv: rev, list: { rv: rev, items }, events: [], end: 'open' };
  const record: WatcherRecord = { name: 'etcd-witness', server: 'etcd', segments: [segment] };
  let last = BigInt(rev);
  const watcher: EtcdWatcher = await client.watch().prefix(prefix).startRevision(String(BigInt(rev) + 1n)).withPreviousKV().create();
  const onEvent = (type: 'put' | 'delete', kv: IKeyValue, previous?: IKeyValue): void => {
    const name = kv.key.toString('utf8').slice(prefix.length);
    const rv = String(kv.mod_revision);
    last = BigInt(rv);
    if (!keep(name)) {
      segment.events.push({ type: 'BOOKMARK', key: '', rv });
    } else if (type === 'delete') {
      segment.events.push({ type: 'DELETED', key: name, rv, ...(previous ? { object: stateOf(previous, rv) } : {}) });
    } else {
      segment.events.push({ type: kv.create_revision === kv.mod_revision ? 'ADDED' : 'MODIFIED', key: name, rv, object: stateOf(kv, rv) });
    }
  };
  watcher.on('put', (kv, previous) => onEvent('put', kv, previous));
  watcher.on('delete', (kv, previous) => onEvent('delete', kv, previous));
  return {
    record,
    lastRv: () => last,
    async stop() {
      await watcher.cancel();
      segment.end = 'closed';
    },
  };
}
