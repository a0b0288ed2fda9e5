/**
 * kube's truncating decorator (k8s.io/apiserver/plugin/pkg/audit/truncate): an event larger than
 * maxEventSize loses its request and response objects and is marked with the annotation
 * audit.k8s.io/truncated=true; an event still too large (or one at level Metadata, which has no
 * objects to lose) is dropped and reported (plugin "truncate"). What is left goes to the delegate
 * in batches of at most maxBatchSize bytes. Sizes are those of kube's JSON encoding.
 */
import type { AuditBackend, AuditBackendObserver, AuditEvent, TruncateConfig } from './interface.js';
import { reportPluginError } from './plugin-error.js';

/** The plugin name kube reports dropped events under. */
export const truncatePluginName = 'truncate';

/** The annotation a truncated event carries. */
export const truncatedAnnotation = 'audit.k8s.io/truncated';

const goEscaped = /[<>&\u2028\u2029]/;

/**
 * The bytes kube's JSON encoder writes for ev: the JSON, a newline (json.Encoder ends every value
 * with one), and the HTML-safe escapes Go adds (<, > and & as \u003c: 5 more bytes each; U+2028
 * and U+2029 as \u2028: 3 more than their UTF-8). Throws when ev cannot be serialised.
 */
export function eventSize(ev: AuditEvent): number {
  const json = JSON.stringify(ev);
  let size = Buffer.byteLength(json) + 1;
  if (goEscaped.test(json)) {
    for (let i = 0; i < json.length; i++) {
      const c = json.charCodeAt(i);
      if (c === 0x3c || c === 0x3e || c === 0x26) size += 5;
      else if (c === 0x2028 || c === 0x2029) size += 3;
    }
  }
  return size;
}

/** ev without its objects and marked truncated; ev itself is left as it was. */
function truncated(ev: AuditEvent): AuditEvent {
  const { requestObject: _req, responseObject: _resp, ...rest } = ev;
  return { ...rest, annotations: { ...ev.annotations, [truncatedAnnotation]: 'true' } };
}

/** kube's error aggregate: one message as is, several distinct ones bracketed. */
function aggregate(messages: readonly string[]): Error {
  const distinct = [...new Set(messages)];
  return new Error(distinct.length === 1 ? distinct[0] : `[${distinct.join(', ')}]`);
}

/** Truncates and splits events for a delegate (kube's truncate<delegate>). */
export class TruncatingBackend implements AuditBackend {
  readonly name: string;

  /** config must be valid (maxEventSize > 0, maxBatchSize >= maxEventSize), as kube's flag validation ensures. */
  constructor(
    private readonly delegate: AuditBackend,
    private readonly config: TruncateConfig,
    private readonly observer?: AuditBackendObserver,
  ) {
    this.name = `${truncatePluginName}<${delegate.name}>`;
  }

  /**
   * Sends events, truncated and split, to the delegate: true when every delegated batch was taken
   * (dropped events do not make it false, as in kube). Synchronous when the delegate is.
   */
  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    const { maxEventSize, maxBatchSize } = this.config;
    let batch: AuditEvent[] = [];
    let batchSize = 0;
    let success = true;
    let pending: Promise<boolean>[] | undefined;
    let impacted: AuditEvent[] | undefined;
    let errors: string[] | undefined;
    for (let ev of events) {
      let size: number;
      try {
        size = eventSize(ev);
        if (size > maxEventSize && (ev.level === 'Request' || ev.level === 'RequestResponse')) {
          ev = truncated(ev);
          size = eventSize(ev);
        }
      } catch (err) {
        (impacted ??= []).push(ev);
        (errors ??= []).push(err instanceof Error ? err.message : String(err));
        continue;
      }
      if (size > maxEventSize) {
        (impacted ??= []).push(ev);
        (errors ??= []).push('event is too large even after truncating');
        continue;
      }
      if (batch.length > 0 && batchSize + size > maxBatchSize) {
        const r = this.delegate.processEvents(batch);
        if (r === false) success = false;
        else if (r !== true) (pending ??= []).push(r);
        batch = [];
        batchSize = 0;
      }
      batchSize += size;
      batch.push(ev);
    }
    if (batch.length > 0) {
      const r = this.delegate.processEvents(batch);
      if (r === false) success = false;
      else if (r !== true) (pending ??= []).push(r);
    }
    if (impacted) reportPluginError(this.observer, truncatePluginName, aggregate(errors!), impacted);
    if (!pending) return success;
    return Promise.all(pending).then((results) => success && results.every(Boolean));
  }

  /** Runs the delegate. */
  run(): void {
    this.delegate.run?.();
  }

  /** Shuts the delegate down (flushing whatever it buffers). */
  shutdown(): Promise<void> {
    return this.delegate.shutdown();
  }
}
