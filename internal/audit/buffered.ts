/**
 * kube's batch mode (k8s.io/apiserver/plugin/pkg/audit/buffered): events wait in a bounded buffer
 * and go to the delegate in batches, a batch leaving when it holds maxBatchSize events or when
 * maxBatchWait has passed since its collection began. A token bucket can limit the batches sent a
 * second. The request never waits: when the buffer is full new events are dropped and counted
 * (plugin "buffered"), as kube's non-blocking channel send does.
 *
 * The collector is a small state machine driven by the events themselves, a timer and the
 * throttle, rather than a loop awaiting promises: an event that completes a batch hands it over
 * at once, so a request pays no promise or timer of its own.
 */
import type { AuditBackend, AuditBackendObserver, AuditEvent, BatchConfig } from './interface.js';
import { reportPluginError } from './plugin-error.js';
import { TokenBucket } from './token-bucket.js';

/** The plugin name kube reports the buffer's drops under. */
export const bufferedPluginName = 'buffered';

type State = 'created' | 'collecting' | 'sending' | 'draining' | 'stopped';

/** Buffers and batches events for a delegate; run() starts it, shutdown() flushes it. */
export class BufferedBackend implements AuditBackend {
  readonly name: string;
  private readonly maxBatchSize: number;
  private readonly bufferSize: number;
  private readonly maxBatchWaitMs: number;
  private readonly asyncDelegate: boolean;
  private readonly throttle: TokenBucket | undefined;

  /** The buffer (kube's channel): queue[head..] are waiting. */
  private queue: AuditEvent[] = [];
  private head = 0;
  /** The batch being collected while state is 'collecting'. */
  private batch: AuditEvent[] = [];
  private state: State = 'created';
  private accepting = true;
  private waitTimer: NodeJS.Timeout | undefined;
  /** When the current collection cycle began (performance.now), for batching by time. */
  private cycleStart = 0;
  private readonly inFlight = new Set<Promise<unknown>>();
  private drained: (() => void) | undefined;
  private stopping: Promise<void> | undefined;

  /**
   * config must already be valid (positive sizes; a positive QPS and burst when throttled), as
   * kube's flag validation ensures. Errors are reported to observer.
   */
  constructor(
    private readonly delegate: AuditBackend,
    config: BatchConfig,
    private readonly observer?: AuditBackendObserver,
  ) {
    if (!(config.bufferSize > 0) || !(config.maxBatchSize > 0)) {
      throw new RangeError(`audit batching needs a positive buffer size and max batch size (got ${config.bufferSize} and ${config.maxBatchSize})`);
    }
    this.name = `${bufferedPluginName}<${delegate.name}>`;
    this.bufferSize = config.bufferSize;
    this.maxBatchSize = config.maxBatchSize;
    // Node's timers hold at most 2^31-1 ms (about 24.8 days); longer would fire at once.
    this.maxBatchWaitMs = Math.min(Math.max(0, config.maxBatchWaitMs), 2 ** 31 - 1);
    this.asyncDelegate = config.asyncDelegate === true;
    this.throttle = config.throttleEnable ? new TokenBucket(config.throttleQPS, config.throttleBurst) : undefined;
  }

  /**
   * Takes the events (which the caller no longer changes) into the buffer. Always true, even when
   * the buffer is full and events are dropped (kube's answer: batch mode never fails a request);
   * false only once shutdown has begun and the events could not be taken.
   */
  processEvents(events: readonly AuditEvent[]): boolean {
    if (!this.accepting) {
      reportPluginError(this.observer, bufferedPluginName, new Error('audit backend shut down'), events);
      return false;
    }
    for (let i = 0; i < events.length; i++) {
      const ev = events[i]!;
      if (this.state === 'collecting') {
        // Collecting means the buffer is empty: the event joins the batch directly.
        this.batch.push(ev);
        if (this.batch.length >= this.maxBatchSize) this.batchReady();
        else if (this.waitTimer === undefined) this.armWaitTimer(this.untilCycleEnds());
      } else if (this.queue.length - this.head < this.bufferSize) {
        this.queue.push(ev);
      } else {
        reportPluginError(this.observer, bufferedPluginName, new Error('audit buffer queue blocked'), events.slice(i));
        return true;
      }
    }
    return true;
  }

  /** Starts the delegate and the batching; events buffered before now are sent first. */
  run(): void {
    if (this.state !== 'created') return;
    this.delegate.run?.();
    this.collect();
  }

  /**
   * Stops taking events, sends what is buffered (in batches, throttled as before), waits for every
   * batch in flight, then shuts the delegate down. Idempotent.
   */
  shutdown(): Promise<void> {
    this.stopping ??= this.stop();
    return this.stopping;
  }

  private async stop(): Promise<void> {
    this.accepting = false;
    if (this.state !== 'stopped') {
      const drained = new Promise<void>((resolve) => (this.drained = resolve));
      if (this.state === 'created') {
        // Never run: kube would wait forever; the buffered events are sent instead.
        this.state = 'draining';
        this.collect();
      } else if (this.state === 'collecting') {
        this.batchReady();
      } else {
        // 'sending': the send in progress continues with the drain when it finishes.
        this.state = 'draining';
      }
      await drained;
    }
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.delegate.shutdown();
  }

  /** Starts the next batch from the buffer, or, once stopped accepting, drains the buffer. */
  private collect(): void {
    for (;;) {
      const take = Math.min(this.maxBatchSize, this.queue.length - this.head);
      const batch = this.queue.slice(this.head, this.head + take);
      this.head += take;
      if (this.head === this.queue.length) {
        this.queue = [];
        this.head = 0;
      } else if (this.head > 4096 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      if (!this.accepting) {
        if (batch.length === 0) {
          this.state = 'stopped';
          this.drained?.();
          return;
        }
        this.state = 'draining';
        if (!this.send(batch)) return;
        continue;
      }
      if (batch.length >= this.maxBatchSize) {
        this.state = 'sending';
        if (!this.send(batch)) return;
        continue;
      }
      this.batch = batch;
      this.state = 'collecting';
      // kube batches by time only when batches hold more than one event.
      if (this.maxBatchSize > 1) {
        this.cycleStart = performance.now();
        if (batch.length > 0) this.armWaitTimer(this.maxBatchWaitMs);
      }
      return;
    }
  }

  /**
   * kube restarts its wait timer at every collection, busy or idle. An idle collector here arms no
   * timer: the first event of a batch arms it for what is left of the current cycle, which sends
   * the batch when kube's would have been sent, without waking an idle server.
   */
  private untilCycleEnds(): number {
    const w = this.maxBatchWaitMs;
    if (w <= 0) return 0;
    return w - ((performance.now() - this.cycleStart) % w);
  }

  private armWaitTimer(ms: number): void {
    this.waitTimer = setTimeout(() => {
      this.waitTimer = undefined;
      this.batchReady();
    }, ms);
    this.waitTimer.unref();
  }

  /** The batch being collected is full, its time is up, or the backend is stopping: send it. */
  private batchReady(): void {
    if (this.waitTimer) {
      clearTimeout(this.waitTimer);
      this.waitTimer = undefined;
    }
    const batch = this.batch;
    this.batch = [];
    this.state = this.accepting ? 'sending' : 'draining';
    if (batch.length === 0 || this.send(batch)) this.collect();
  }

  /**
   * Hands batch to the delegate, after the throttle allows it. Returns true when the caller may
   * continue collecting at once; false when the collection resumes later (throttle wait, or a
   * synchronous-mode delegate still working).
   */
  private send(batch: AuditEvent[]): boolean {
    const delay = this.throttle ? this.throttle.reserve() : 0;
    if (delay > 0) {
      setTimeout(() => {
        if (this.deliver(batch)) this.collect();
      }, delay);
      return false;
    }
    return this.deliver(batch);
  }

  /** Calls the delegate; false when its promise must settle before the next batch. */
  private deliver(batch: AuditEvent[]): boolean {
    let result: boolean | Promise<boolean>;
    try {
      result = this.delegate.processEvents(batch);
    } catch (err) {
      this.crashed(err, batch);
      return true;
    }
    if (typeof result === 'boolean') return true;
    const settled = result.then(
      () => undefined,
      (err: unknown) => this.crashed(err, batch),
    );
    if (this.asyncDelegate) {
      this.inFlight.add(settled);
      void settled.then(() => this.inFlight.delete(settled));
      return true;
    }
    void settled.then(() => this.collect());
    return false;
  }

  /** A delegate that throws (kube: a recovered panic) loses its batch; the batching goes on. */
  private crashed(err: unknown, batch: readonly AuditEvent[]): void {
    try {
      this.observer?.logError?.(`audit backend ${this.delegate.name} failed on a batch of ${batch.length} events: ${err instanceof Error ? err.message : String(err)}`);
    } catch {
      // Nothing more to do with an observer that fails.
    }
  }
}
