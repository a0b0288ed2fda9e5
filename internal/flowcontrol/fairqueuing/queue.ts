/**
 * The pieces a queue set is made of: a request as the fair queuing sees it (its seats and work in
 * seat-seconds, its place in a queue, its times) and a queue (a FIFO of waiting requests with
 * kube's running sums, its executing requests and its virtual dispatch time, nextDispatchR).
 */
import type { UserInfo } from '../../request/context.js';
import type { RequestInfo } from '../../request/request-info.js';
import type { AdmitResult } from '../interface.js';
import type { FlowSeries } from './flow-metrics.js';

/** kube's estimatedServiceDuration: the service time fair queuing assumes before it knows better, in seconds. */
export const estimatedServiceSeconds = 0.003;

/** Where a request is in its life. */
export const enum RequestState {
  Waiting,
  Executing,
  /** finish() was called; seats may still be held for the additional latency. */
  Finished,
  /** Its seats are released. */
  Done,
  Rejected,
}

/** What a queued or executing request carries; it is also the admitted AdmitResult (finish() ends it). */
export class FairRequest {
  readonly admitted = true as const;
  state = RequestState.Waiting;
  initialSeats: number;
  finalSeats: number;
  additionalLatencyMs: number;
  /** max(initialSeats, finalSeats): the seats held from dispatch until the additional latency ends. */
  seats: number;
  /** Seat-seconds: initialSeats * estimated service time + finalSeats * additional latency. */
  totalWork: number;
  finalWork: number;
  /** The queue set's R when the request arrived. */
  arrivalR = 0;
  /** The queue set's clock (performance.now() milliseconds) at arrival and at dispatch (0 before). */
  arrivalMs: number;
  startMs = 0;
  queue: Queue | undefined = undefined;
  prev: FairRequest | undefined = undefined;
  next: FairRequest | undefined = undefined;
  resolve: ((r: AdmitResult) => void) | undefined = undefined;
  timer: NodeJS.Timeout | undefined = undefined;
  onAbort: (() => void) | undefined = undefined;
  /** Set by the queue set: ends the request (releases its seats, now or after the additional latency). */
  end: (r: FairRequest) => void;

  constructor(
    readonly series: FlowSeries,
    readonly flowDistinguisher: string,
    initialSeats: number,
    finalSeats: number,
    additionalLatencyMs: number,
    private readonly source: { readonly signal: AbortSignal },
    readonly user: UserInfo,
    readonly requestInfo: RequestInfo,
    readonly mutating: boolean,
    now: number,
    end: (r: FairRequest) => void,
  ) {
    this.initialSeats = initialSeats;
    this.finalSeats = finalSeats;
    this.additionalLatencyMs = additionalLatencyMs;
    this.seats = Math.max(initialSeats, finalSeats);
    this.finalWork = finalSeats * (additionalLatencyMs / 1000);
    this.totalWork = initialSeats * estimatedServiceSeconds + this.finalWork;
    this.arrivalMs = now;
    this.end = end;
  }

  /**
   * The request's signal, read only when the request waits (the request context makes its
   * AbortController on first read: a few microseconds per request the fast path never pays).
   */
  get signal(): AbortSignal {
    return this.source.signal;
  }

  /** Ends the request's execution; must be called exactly once (later calls do nothing). */
  finish(): void {
    if (this.state === RequestState.Executing) this.end(this);
  }

  /**
   * Caps final seats at limit, stretching the additional latency so the final work stays the
   * same (kube does this at dispatch when the final seats exceed the level's limit).
   */
  /**
   * The seats the request takes once dispatched under limit (capFinalSeats): what the dispatch
   * decision must weigh, or a request whose final seats get capped would be let in as a wide one
   * while finished requests still hold seats (kube's estimator caps before the queue set sees it).
   */
  cappedSeats(limit: number): number {
    if (this.finalSeats <= limit || limit <= 0) return this.seats;
    return Math.max(this.initialSeats, limit);
  }

  capFinalSeats(limit: number): void {
    if (this.finalSeats <= limit || limit <= 0) return;
    this.additionalLatencyMs = (this.finalWork / limit) * 1000;
    this.finalSeats = limit;
    this.seats = Math.max(this.initialSeats, this.finalSeats);
  }
}

/** One queue of a queue set. */
export class Queue {
  head: FairRequest | undefined = undefined;
  tail: FairRequest | undefined = undefined;
  length = 0;
  initialSeatsSum = 0;
  maxSeatsSum = 0;
  totalWorkSum = 0;
  /** Virtual time (seat-seconds) at which the queue's next request is due. */
  nextDispatchR = 0;
  readonly executing = new Set<FairRequest>();
  seatsInUse = 0;

  constructor(public index: number) {}

  /** Waiting or executing requests (kube's definition of an active queue). */
  get active(): boolean {
    return this.length > 0 || this.executing.size > 0;
  }

  /** Appends r. */
  enqueue(r: FairRequest): void {
    r.prev = this.tail;
    r.next = undefined;
    if (this.tail) this.tail.next = r;
    else this.head = r;
    this.tail = r;
    this.length++;
    this.initialSeatsSum += r.initialSeats;
    this.maxSeatsSum += r.seats;
    this.totalWorkSum += r.totalWork;
  }

  /** Takes r out, wherever it is. */
  remove(r: FairRequest): void {
    if (r.prev) r.prev.next = r.next;
    else this.head = r.next;
    if (r.next) r.next.prev = r.prev;
    else this.tail = r.prev;
    r.prev = r.next = undefined;
    this.length--;
    this.initialSeatsSum -= r.initialSeats;
    this.maxSeatsSum -= r.seats;
    this.totalWorkSum -= r.totalWork;
    if (this.length === 0) this.totalWorkSum = 0;
  }

  /** The waiting requests, oldest first. */
  waiting(): FairRequest[] {
    const out: FairRequest[] = [];
    for (let r = this.head; r; r = r.next) out.push(r);
    return out;
  }
}
