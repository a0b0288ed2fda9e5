/**
 * A cache's window of recent events (kube's watchCache cyclic buffer): watches from a revision in
 * it are replayed from it. It keeps at least minSize events, and at most maxSize, dropping those
 * older than freshMs beyond the minimum (kube: 100, 100 * 1024 and eventFreshDuration's 75 s).
 */
import type { WindowEvent } from './dispatch.js';

export interface WindowLimits {
  readonly minSize: number;
  readonly maxSize: number;
  readonly freshMs: number;
}

export class EventWindow {
  private events: WindowEvent[] = [];
  private head = 0;
  /** Watches from a revision at or above this one are served from the window. */
  oldestRv = 0;

  constructor(private readonly limits: WindowLimits) {}

  /** Empties the window; watches from rv on can be served from it (unchanged without rv). */
  reset(rv?: number): void {
    this.events = [];
    this.head = 0;
    if (rv !== undefined) this.oldestRv = rv;
  }

  /** How many events it holds. */
  get size(): number {
    return this.events.length - this.head;
  }

  /** Appends we, dropping what its limits let go (the oldest revision moves up with them). */
  push(we: WindowEvent): void {
    this.events.push(we);
    const { minSize, maxSize, freshMs } = this.limits;
    while (this.size > maxSize || (this.size > minSize && we.at - (this.events[this.head] as WindowEvent).at > freshMs)) {
      const old = this.events[this.head] as WindowEvent;
      this.oldestRv = old.rv;
      this.events[this.head] = undefined as unknown as WindowEvent;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }

  /** The events after revision rv, oldest first. */
  *after(rv: number): Generator<WindowEvent> {
    for (let i = this.firstIndexAfter(rv); i < this.events.length; i++) yield this.events[i] as WindowEvent;
  }

  /** Whether an event after revision rv is in the window. */
  hasAfter(rv: number): boolean {
    return this.firstIndexAfter(rv) < this.events.length;
  }

  private firstIndexAfter(rv: number): number {
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.events[mid] as WindowEvent).rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
