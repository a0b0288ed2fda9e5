/**
 * The server's lifecycle signals, named as kube-apiserver names them (lifecycle_signals.go): the
 * events of a graceful shutdown, in the order they happen. Filters read `signaled` on every request
 * (a field read); the shutdown sequence and its helpers await `wait()`.
 */

/** One event that happens at most once. */
export class LifecycleSignal {
  private fired = false;
  private waiters: Array<() => void> | undefined;

  constructor(
    /** kube's name for the event (logged as `name=<Name>`). */
    readonly name: string,
  ) {}

  /** Whether the event has happened. */
  get signaled(): boolean {
    return this.fired;
  }

  /** Records the event (idempotent) and wakes everyone waiting for it. */
  signal(): void {
    if (this.fired) return;
    this.fired = true;
    const waiters = this.waiters;
    this.waiters = undefined;
    if (waiters) for (const w of waiters) w();
  }

  /** Resolves once the event has happened. */
  wait(): Promise<void> {
    if (this.fired) return Promise.resolve();
    return new Promise((resolve) => (this.waiters ??= []).push(resolve));
  }
}

/** The signals of one server, in the order a graceful shutdown raises them. */
export class LifecycleSignals {
  /** SIGTERM (or stop()): /readyz starts failing at once. */
  readonly shutdownInitiated = new LifecycleSignal('ShutdownInitiated');
  /** --shutdown-delay-duration has elapsed since ShutdownInitiated. */
  readonly afterShutdownDelayDuration = new LifecycleSignal('AfterShutdownDelayDuration');
  /** The pre-shutdown hooks have returned. */
  readonly preShutdownHooksStopped = new LifecycleSignal('PreShutdownHooksStopped');
  /**
   * Both of the above: the in-flight wait group stops admitting requests, and without
   * --shutdown-send-retry-after the listener closes.
   */
  readonly notAcceptingNewRequest = new LifecycleSignal('NotAcceptingNewRequest');
  /** Every non-long-running request has finished, and the watches have drained (or their grace ran out). */
  readonly inFlightRequestsDrained = new LifecycleSignal('InFlightRequestsDrained');
  /** The listener is closed: new connections are refused. */
  readonly httpServerStoppedListening = new LifecycleSignal('HTTPServerStoppedListening');
}
