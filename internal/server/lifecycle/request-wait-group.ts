/**
 * The in-flight wait group of non-long-running requests (kube's NonLongRunningRequestWaitGroup, a
 * SafeWaitGroup): the wait-group filter adds each request and removes it when its response
 * closes; the graceful shutdown waits for it to empty. Once waiting, it admits nothing more.
 */
import type { ServerResponse } from 'node:http';

/** Requests in flight; one per server. */
export class RequestWaitGroup {
  private readonly inFlight = new Set<ServerResponse>();
  private waiting = false;
  private onDrained: (() => void) | undefined;
  /**
   * Set once the server stops listening: every response written from then on closes its
   * connection after it (a client must not send another request on a connection about to close).
   */
  closeConnections = false;

  /** Adds res; false once wait() has been called (the caller then turns the request away). */
  add(res: ServerResponse): boolean {
    if (this.waiting) return false;
    this.inFlight.add(res);
    return true;
  }

  /** Removes res (its response closed). Idempotent. */
  done(res: ServerResponse): void {
    if (!this.inFlight.delete(res)) return;
    if (this.inFlight.size === 0 && this.onDrained) {
      const drained = this.onDrained;
      this.onDrained = undefined;
      drained();
    }
  }

  /** How many requests are in flight. */
  get count(): number {
    return this.inFlight.size;
  }

  /** Whether wait() has been called. */
  get isWaiting(): boolean {
    return this.waiting;
  }

  /** The responses in flight now (to have those not yet started close their connection after them). */
  responses(): Iterable<ServerResponse> {
    return this.inFlight;
  }

  /**
   * Stops admitting requests and resolves once those in flight have finished. Each is bounded by
   * its own timeout (--request-timeout), so this is too.
   */
  wait(): Promise<void> {
    this.waiting = true;
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.onDrained = resolve;
    });
  }
}
