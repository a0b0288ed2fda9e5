/**
 * The work estimator (kube's request/width.go, list_work_estimator.go and
 * mutating_work_estimator.go): how many seats a request takes, and for how long after it.
 * - list (and watch, with WatchList on: its initial events cost what the list would): one seat per
 *   100 objects the server goes through: every stored object when served from the watch cache,
 *   the objects plus the page when a selector filters a read from etcd, twice the page otherwise;
 *   the count is the resource's stored objects, refreshed in the background. Unknown counts cost
 *   one seat, stale ones (or unparseable options) the maximum.
 * - create, update, patch, delete: one seat, plus one final seat per 10 watches of the resource
 *   held for 5 ms each (reshaped to at most the maximum seats for proportionally longer), once at
 *   least 10 watches are open. serviceaccounts/token makes no watch events.
 * - everything else: one seat.
 * Seats are capped at min(10, the level's maximum).
 */
import type { RequestInfo } from '../../request/request-info.js';
import type { WorkEstimate } from '../interface.js';
import type { ObjectCounts } from './object-counts.js';
import type { WatchTracker } from './watch-tracker.js';

const minimumSeats = 1;
const maximumSeatsLimit = 10;
const objectsPerSeat = 100;
const watchesPerSeat = 10;
const eventAdditionalDurationMs = 5;

const oneSeat: WorkEstimate = Object.freeze({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
const mutatingVerbs = new Set(['create', 'update', 'patch', 'delete']);

/** What the estimator reads. */
export interface WorkEstimatorDeps {
  readonly counts: Pick<ObjectCounts, 'get'>;
  readonly watches: Pick<WatchTracker, 'interestedWatchCount'>;
  /** The dispatcher's maxSeats. */
  readonly maxSeats: (priorityLevelName: string) => number;
  /** The WatchList gate: watches are estimated as lists. */
  readonly watchList: boolean;
  /** The ConsistentListFromCache gate: lists without resourceVersion are served from the cache. */
  readonly consistentListFromCache: boolean;
  /** apiserver_flowcontrol_watch_count_samples: the watchers of each write (absent: not recorded). */
  readonly observeWatchCount?: (priorityLevelName: string, flowSchemaName: string, watchers: number) => void;
}

/** Estimates one request; query is its parsed query string. */
export type WorkEstimator = (ri: RequestInfo, query: URLSearchParams, priorityLevelName: string, flowSchemaName: string) => WorkEstimate;

function seatsOf(estimate: number): WorkEstimate {
  return estimate === 1 ? oneSeat : { initialSeats: estimate, finalSeats: 0, additionalLatencyMs: 0 };
}

/** kube's shouldListFromStorage. */
function listsFromStorage(query: URLSearchParams, limit: number, consistentListFromCache: boolean): boolean {
  const rv = query.get('resourceVersion') ?? '';
  const match = query.get('resourceVersionMatch') ?? '';
  if (rv === '' && !consistentListFromCache) return true;
  if ((query.get('continue') ?? '') !== '') return true;
  const legacyExact = limit > 0 && match === '' && rv !== '' && rv !== '0';
  return (match !== '' && match !== 'NotOlderThan') || legacyExact;
}

/** Builds the estimator. */
export function workEstimator(deps: WorkEstimatorDeps): WorkEstimator {
  const cap = (level: string): number => {
    const m = deps.maxSeats(level);
    return m <= 0 || m > maximumSeatsLimit ? maximumSeatsLimit : m;
  };

  const list = (ri: RequestInfo, query: URLSearchParams, level: string): WorkEstimate => {
    if (ri.name !== '') return oneSeat;
    const maxSeats = cap(level);
    const rawLimit = query.get('limit');
    let limitOpt = 0;
    if (rawLimit !== null && rawLimit !== '') {
      limitOpt = Number(rawLimit);
      // Destined to fail validation: kube charges the maximum.
      if (!Number.isInteger(limitOpt)) return seatsOf(maxSeats);
    }
    const fromCache = ri.verb === 'watch' || !listsFromStorage(query, limitOpt, deps.consistentListFromCache);
    const count = deps.counts.get(ri.apiGroup ? `${ri.resource}.${ri.apiGroup}` : ri.resource);
    if (count === 'unknown') return oneSeat;
    if (count === 'stale') return seatsOf(maxSeats);
    const limit = limitOpt > 0 && limitOpt < count ? limitOpt : count;
    let objects: number;
    if (fromCache) objects = count;
    else if ((query.get('fieldSelector') ?? '') !== '' || (query.get('labelSelector') ?? '') !== '') objects = count + limit;
    else objects = 2 * limit;
    return seatsOf(Math.min(maxSeats, Math.max(minimumSeats, Math.ceil(objects / objectsPerSeat))));
  };

  const mutating = (ri: RequestInfo, level: string, flowSchema: string): WorkEstimate => {
    if (ri.resource === 'serviceaccounts' && ri.subresource === 'token') return oneSeat;
    const watchers = deps.watches.interestedWatchCount(ri);
    deps.observeWatchCount?.(level, flowSchema, watchers);
    if (watchers < watchesPerSeat) return oneSeat;
    const maxSeats = cap(level);
    let finalSeats = Math.ceil(watchers / watchesPerSeat);
    const work = finalSeats * eventAdditionalDurationMs;
    if (finalSeats > maxSeats) finalSeats = maxSeats;
    return { initialSeats: 1, finalSeats, additionalLatencyMs: work / finalSeats };
  };

  return (ri, query, level, flowSchema) => {
    if (!ri.isResourceRequest) return oneSeat;
    const verb = ri.verb;
    if (verb === 'list' || (verb === 'watch' && deps.watchList)) return list(ri, query, level);
    if (mutatingVerbs.has(verb)) return mutating(ri, level, flowSchema);
    return oneSeat;
  };
}
