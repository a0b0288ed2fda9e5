/**
 * client-go's EventCorrelator, which kubelet's recorder runs every Event through:
 * - the aggregator: more than 10 Events within 10 minutes that differ only in message become one
 *   Event whose message is "(combined from similar events): <latest message>";
 * - the logger: an Event identical to one already written (same source, object, type, reason and
 *   message) is a PATCH of that Event's count, lastTimestamp and message instead of a new Event;
 * - the spam filter: per source and object, a token bucket of 25 that refills one every 5 minutes.
 * Caches are LRU-bounded (4096 keys), as client-go's are.
 */
import { TokenBucket } from '../client/token-bucket.js';
import { Lru } from '../../collections/lru.js';

/** A core/v1 Event as the recorder builds and the API server returns it. */
export interface CoreEvent {
  apiVersion: 'v1';
  kind: 'Event';
  metadata: { name: string; namespace: string; resourceVersion?: string };
  involvedObject: { kind: string; namespace?: string; name: string; uid: string; apiVersion: string; resourceVersion?: string; fieldPath?: string };
  reason: string;
  message: string;
  source: { component: string; host: string };
  firstTimestamp: string;
  lastTimestamp: string;
  count: number;
  type: string;
  eventTime: null;
  reportingComponent: string;
  reportingInstance: string;
}

const cacheSize = 4096;
const aggregateMaxEvents = 10;
const aggregateIntervalMs = 600_000;
const spamBurst = 25;
const spamQps = 1 / 300;

function objectKey(e: CoreEvent): string[] {
  const o = e.involvedObject;
  return [e.source.component, e.source.host, o.kind, o.namespace ?? '', o.name, o.uid, o.apiVersion];
}

/** The key of identical events (client-go's getEventKey). */
export function eventKey(e: CoreEvent): string {
  return [...objectKey(e), o(e.involvedObject.fieldPath), e.type, e.reason, e.message].join('\u0000');
}

function o(s: string | undefined): string {
  return s ?? '';
}

/** What to do with an Event. */
export type Correlation = { readonly skip: true } | { readonly skip: false; readonly event: CoreEvent; readonly patch?: Record<string, unknown> };

/** The correlator of one recorder. */
export class EventCorrelator {
  private readonly aggregates = new Lru<{ messages: Set<string>; lastMs: number }>(cacheSize);
  private readonly observed = new Lru<{ count: number; firstTimestamp: string; name: string; resourceVersion?: string }>(cacheSize);
  private readonly spam = new Lru<TokenBucket>(cacheSize);

  constructor(private readonly now: () => Date) {}

  /** Aggregates, deduplicates and filters one new Event. */
  correlate(input: CoreEvent): Correlation {
    const { event, key } = this.aggregate(input);
    const last = this.observed.get(key);
    let result: Correlation;
    if (last) {
      const updated: CoreEvent = {
        ...event,
        metadata: { ...event.metadata, name: last.name, ...(last.resourceVersion ? { resourceVersion: last.resourceVersion } : {}) },
        count: last.count + 1,
        firstTimestamp: last.firstTimestamp,
      };
      result = { skip: false, event: updated, patch: { count: updated.count, lastTimestamp: updated.lastTimestamp, message: updated.message } };
      this.observed.set(key, { ...last, count: updated.count });
    } else {
      result = { skip: false, event };
      this.observed.set(key, { count: event.count, firstTimestamp: event.firstTimestamp, name: event.metadata.name });
    }
    const spamKey = [...objectKey(event), event.type].join('\u0000');
    let bucket = this.spam.get(spamKey);
    if (!bucket) {
      bucket = new TokenBucket(spamQps, spamBurst);
      this.spam.set(spamKey, bucket);
    }
    return bucket.tryTake() ? result : { skip: true };
  }

  /** Records what the server stored, so later repeats patch it. */
  updateState(saved: CoreEvent): void {
    this.observed.set(eventKey(saved), { count: saved.count, firstTimestamp: saved.firstTimestamp, name: saved.metadata.name, ...(saved.metadata.resourceVersion ? { resourceVersion: saved.metadata.resourceVersion } : {}) });
  }

  private aggregate(event: CoreEvent): { event: CoreEvent; key: string } {
    const aggregateKey = [...objectKey(event), event.type, event.reason, event.reportingComponent, event.reportingInstance].join('\u0000');
    const nowMs = this.now().getTime();
    let record = this.aggregates.get(aggregateKey);
    if (!record || nowMs - record.lastMs > aggregateIntervalMs) record = { messages: new Set(), lastMs: nowMs };
    record.messages.add(event.message);
    record.lastMs = nowMs;
    this.aggregates.set(aggregateKey, record);
    if (record.messages.size < aggregateMaxEvents) return { event, key: eventKey(event) };
    // Keep the set at its bound so the aggregate stays in force while similar events keep coming.
    const first = record.messages.values().next().value as string;
    record.messages.delete(first);
    return { event: { ...event, message: `(combined from similar events): ${event.message}` }, key: aggregateKey };
  }
}
