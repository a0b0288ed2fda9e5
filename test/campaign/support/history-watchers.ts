/**
 * The linearizability campaign's watchers: each lists the namespace's ConfigMaps on its server and
 * watches from the list's resourceVersion, recording every event. A watch that ends is resumed from
 * the last resourceVersion seen; a 410 (before the stream or as an ERROR event) is followed by a
 * relist. A lazy watcher drops its stream now and then and pauses before resuming, so it falls out
 * of the watch cache's window and meets the 410 path; another takes its state from initial events.
 */
import { streamWatch } from '../../support/watch.js';
import { campaignItems, isCampaignKey } from './history-clients.js';
import type { ApiServer } from './history-cluster.js';
import { call } from './history-http.js';
import type { ObjectState, WatcherRecord, WatchSegment } from './history-types.js';

/** A running watcher: its record, the last resourceVersion it has seen, and how many 410s it met. */
export interface Watcher {
  readonly record: WatcherRecord;
  lastRv(): bigint;
  expirations(): number;
  /** Ends the watcher's stream and loop; resolves when the loop has returned. */
  stop(): Promise<void>;
}

/**
 * How a watcher gets its state: `list` lists, then watches from the list's resourceVersion; `lazy`
 * does the same but drops its stream every 0.3-1.5 s and pauses up to 2 s before resuming; `initial`
 * watches with sendInitialEvents=true and takes the ADDED events before the initial-events-end
 * bookmark as its list.
 */
export type WatcherMode = 'list' | 'lazy' | 'initial';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const initialEventsEnd = 'k8s.io/initial-events-end';

/** Starts one watcher on server in the given mode; random drives the lazy watcher's pauses. */
export function startWatcher(name: string, server: ApiServer, ns: string, mode: WatcherMode, random: () => number): Watcher {
  const record: WatcherRecord = { name, server: server.name, segments: [] };
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  let last = '';
  let stopped = false;
  let expired = 0;
  let closeStream: (() => void) | undefined;
  const open = (): WatchSegment | undefined => {
    const tail = record.segments[record.segments.length - 1];
    return tail?.end === 'open' ? tail : undefined;
  };

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

  /** Follows one watch request; with initial set, its initial events become the segment's list. */
  const follow = (initial: boolean): Promise<'closed' | 'expired'> =>
    new Promise((resolve) => {
      let result: 'closed' | 'expired' = 'closed';
      let segment: WatchSegment | undefined;
      const items: Record<string, ObjectState> = {};
      if (!initial) {
        segment = open() ?? { fromRv: last, events: [], end: 'open' };
        if (segment !== open()) record.segments.push(segment);
      }
      const path = initial
        ? `${base}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`
        : `${base}?watch=1&resourceVersion=${last}&allowWatchBookmarks=true`;
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
            const state = (): ObjectState => ({ uid: e.object.metadata.uid, rv, data: e.object.data ?? {} });
            if (!segment) {
              if (e.type === 'ADDED' && isCampaignKey(name)) items[name] = state();
              if (e.type === 'BOOKMARK' && e.object?.metadata?.annotations?.[initialEventsEnd] === 'true') {
                segment = { fromRv: rv, list: { rv, items }, events: [], end: 'open' };
                record.segments.push(segment);
                last = rv;
              }
              return;
            }
            if (e.type !== 'BOOKMARK' && isCampaignKey(name)) segment.events.push({ type: e.type, key: name, rv, object: state() });
            // Progress on another key (or a bookmark): every campaign event before rv was sent.
            else segment.events.push({ type: 'BOOKMARK', key: '', rv });
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
    let needList = true;
    while (!stopped) {
      if (needList && mode !== 'initial') await relist();
      const initial: boolean = needList && mode === 'initial';
      const drop = mode === 'lazy' ? setTimeout(() => closeStream?.(), 300 + random() * 1200) : undefined;
      const end = await follow(initial);
      clearTimeout(drop);
      const segment = open();
      if (segment) segment.end = end;
      if (stopped) break;
      // An initial-events watch that ended before its end bookmark starts over.
      needList = end === 'expired' || (initial && !segment);
      if (end === 'expired') expired++;
      else await sleep(mode === 'lazy' ? random() * 2000 : server.up ? 20 : 100);
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
