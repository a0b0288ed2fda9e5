/**
 * The node agent's EventRecorder (client-go's record.EventBroadcaster as kubelet sets it up): core/v1
 * Events from source {component: kubelet, host: <node>}, in the object's namespace (or "default"
 * for the Node), written in the background through a queue of 1000 (dropped when full, as the
 * broadcaster drops), rate-limited by --event-qps/--event-burst (0 qps: unlimited), and passed
 * through client-go's EventCorrelator first (correlator.ts): repeats become a PATCH of count and
 * lastTimestamp of the first Event, floods of similar ones are combined, and spam is dropped.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { Logger } from '../../observability/logging.js';
import { ApiError, type ApiClient } from '../client/api-client.js';
import { TokenBucket } from '../client/token-bucket.js';
import type { EventRecorder } from '../interface.js';
import { EventCorrelator, type CoreEvent } from './correlator.js';

/** The queue length of client-go's broadcaster (maxQueuedEvents). */
const maxQueued = 1000;

/** What the recorder needs of the API client. */
export type EventClient = Pick<ApiClient, 'create' | 'patch'>;

/** The recorder, with a way to wait for what is queued (tests, graceful stop). */
export interface NodeEventRecorder extends EventRecorder {
  /** Resolves once every event queued so far was written or dropped. */
  flush(): Promise<void>;
  /** Drops what is still queued and stops writing. */
  stop(): void;
}

/** Options: --event-qps/--event-burst, and a clock for tests. */
export interface EventRecorderOptions {
  readonly qps: number;
  readonly burst: number;
  readonly log: Logger;
  readonly now?: () => Date;
}

/** The reference kubelet records about: a Node's uid is its name, as kubelet's nodeRef has it. */
function referenceOf(obj: KubeObject, nodeName: string, fieldPath?: string): CoreEvent['involvedObject'] {
  const kind = obj.kind ?? 'Pod';
  const md = obj.metadata;
  return {
    kind,
    ...(md.namespace ? { namespace: md.namespace } : {}),
    name: md.name ?? '',
    uid: kind === 'Node' ? (md.name ?? nodeName) : (md.uid ?? ''),
    apiVersion: obj.apiVersion ?? 'v1',
    ...(kind !== 'Node' && md.resourceVersion ? { resourceVersion: md.resourceVersion } : {}),
    ...(fieldPath ? { fieldPath } : {}),
  };
}

/** Builds the recorder of node nodeName. */
export function createEventRecorder(client: EventClient, nodeName: string, opts: EventRecorderOptions): NodeEventRecorder {
  const now = opts.now ?? (() => new Date());
  const bucket = opts.qps > 0 ? new TokenBucket(opts.qps, Math.max(1, opts.burst)) : undefined;
  const correlator = new EventCorrelator(now);
  const queue: CoreEvent[] = [];
  const stopped = new AbortController();
  let running: Promise<void> | undefined;

  async function write(event: CoreEvent): Promise<void> {
    const result = correlator.correlate(event);
    if (result.skip) return;
    await bucket?.take(stopped.signal);
    const ns = result.event.metadata.namespace;
    const path = `/api/v1/namespaces/${encodeURIComponent(ns)}/events`;
    if (result.patch) {
      try {
        const saved = (await client.patch(`${path}/${encodeURIComponent(result.event.metadata.name)}`, 'strategic', result.patch)) as unknown as CoreEvent;
        correlator.updateState(saved);
        return;
      } catch (err) {
        // The first Event expired (event TTL) or was deleted: record a new one, as client-go does.
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
    }
    const { resourceVersion: _rv, ...metadata } = result.event.metadata;
    const fresh = { ...result.event, metadata };
    const saved = (await client.create(path, fresh)) as unknown as CoreEvent;
    correlator.updateState(saved);
  }

  async function drain(): Promise<void> {
    while (queue.length > 0 && !stopped.signal.aborted) {
      const event = queue.shift() as CoreEvent;
      try {
        await write(event);
      } catch (err) {
        if (stopped.signal.aborted) return;
        opts.log.warn(`Server rejected event (will not retry!): ${(err as Error).message}`, { event: `${event.involvedObject.name}: ${event.reason}` });
      }
    }
  }

  function kick(): void {
    running ??= drain().finally(() => {
      running = undefined;
      if (queue.length > 0 && !stopped.signal.aborted) kick();
    });
  }

  return {
    event(object, type, reason, message, fieldPath) {
      if (stopped.signal.aborted) return;
      if (queue.length >= maxQueued) {
        opts.log.v(2, 'Event dropped: the event queue is full', { reason, object: object.metadata.name });
        return;
      }
      const at = now();
      const involvedObject = referenceOf(object, nodeName, fieldPath);
      const timestamp = at.toISOString().replace(/\.\d+Z$/, 'Z');
      queue.push({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${involvedObject.name}.${(BigInt(at.getTime()) * 1_000_000n + BigInt(process.hrtime()[1] % 1_000_000)).toString(16)}`, namespace: involvedObject.namespace ?? 'default' },
        involvedObject,
        reason,
        message,
        source: { component: 'kubelet', host: nodeName },
        firstTimestamp: timestamp,
        lastTimestamp: timestamp,
        count: 1,
        type,
        eventTime: null,
        reportingComponent: 'kubelet',
        reportingInstance: nodeName,
      });
      kick();
    },
    async flush() {
      while (running) await running;
    },
    stop() {
      stopped.abort();
      queue.length = 0;
    },
  };
}
