/**
 * The linearizability campaign's watchers: each lists the namespace's ConfigMaps on its server and
 * watches from the list's resourceVersion, recording every event. A watch that ends is resumed from
 * the last resourceVersion seen; a 410 (before the stream or as an ERROR event) is followed by a
 * relist. A lazy watcher drops its stream now and then and pauses before resuming, so it falls out
 * of the watch cache's window or behind a compaction and meets the 410 path.
 */
import { streamWatch } from '../../support/watch.js';
import { campaignItems, isCampaignKey } from './history-clients.js';
import type { ApiServer } from './history-cluster.js';
import { call } from './history-http.js';
import type { WatcherRecord, WatchSegment } from './history-types.js';

/** A running watcher: its record, the last resourceVersion it has seen, and how many 410s it met. */
export interface Watcher {
  readonly record: WatcherRecord;
  lastRv(): bigint;
  expirations(): number;
  /** Ends the watcher's stream and loop; resolves when the loop has returned. */
  stop(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Starts one watcher on server; lazy watchers drop their stream every 0.3-1.5 s and pause up to 1 s. */
export function startWatcher(name: string, server: ApiServer, ns: string, lazy: boolean, random: () => number): Watcher {
  const record: WatcherRecord = { name, server: server.name, segments: [] };
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  let last = '';
  let stopped = false;
  let expired = 0;
  let closeStream: (() => void) | undefined;

  const relist = async (): Promise<void> => {
    while (!stopped) {
      const a = await call(server, 'GET', base);
      if (a.status === 200) {
        last = a.body.metadata.resourceVersion;
        record.segments.push({ fromRv: last, list: { rv: last, items: campaignItems(a.body) }, events: [], end: 'open' });
        return;
      }
      await sleep(100);
    }
  };

  const follow = (segment: WatchSegment): Promise<'closed' | 'expired'> =>
    new Promise((resolve) => {
      let result: 'closed' | 'expired' = 'closed';
      const path = `${base}?watch=1&resourceVersion=${last}&allowWatchBookmarks=true`;
      const stream = streamWatch(
        { port: server.port, ca: server.ca, path },
        {
          onEvent(e) {
            if (e.kind === 'Status' || e.type === 'ERROR') {
              const status = e.type === 'ERROR' ? e.object : e;
              if (status?.code === 410) result = 'expired';
              stream.close();
              resolve(result);
              return;
            }
            const rv: string = e.object?.metadata?.resourceVersion ?? '';
            const name: string = e.object?.metadata?.name ?? '';
            if (e.type !== 'BOOKMARK' && isCampaignKey(name)) {
              segment.events.push({ type: e.type, key: name, rv, object: { uid: e.object.metadata.uid, rv, data: e.object.data ?? {} } });
            } else {
              // Progress on another key (or a bookmark): every campaign event before rv was sent.
              segment.events.push({ type: 'BOOKMARK', key: '', rv });
            }
            last = rv;
          },
          onEnd() {
            resolve(result);
          },
        },
      );
      closeStream = () => {
        stream.close();
        resolve(result);
      };
    });

  const loop = (async () => {
    await relist();
    while (!stopped) {
      const segment: WatchSegment = record.segments[record.segments.length - 1]?.end === 'open' ? (record.segments[record.segments.length - 1] as WatchSegment) : { fromRv: last, events: [], end: 'open' };
      if (segment !== record.segments[record.segments.length - 1]) record.segments.push(segment);
      const drop = lazy ? setTimeout(() => closeStream?.(), 300 + random() * 1200) : undefined;
      const end = await follow(segment);
      clearTimeout(drop);
      segment.end = end;
      if (stopped) break;
      if (end === 'expired') {
        expired++;
        await relist();
      } else {
        await sleep(lazy ? random() * 1000 : server.up ? 20 : 100);
      }
    }
  })();

  return {
    record,
    lastRv: () => (last === '' ? 0n : BigInt(last)),
    expirations: () => expired,
    async stop() {
      stopped = true;
      closeStream?.();
      await loop;
      const tail = record.segments[record.segments.length - 1];
      if (tail?.end === 'open') tail.end = 'closed';
    },
  };
}
