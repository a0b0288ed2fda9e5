/*
 * Every entry point (start, a timer, finish, a configuration change) calls sync() first, which
 * sets lastSyncMs to the current time; the accounting after it reads that instead of the clock.
 */

/**
 * One priority level's queue set: kube's fairqueuing/queueset (1.33) in one thread. Requests are
 * shuffle-sharded into the shortest queue of their flow's hand (least waiting work), dispatched
 * in order of virtual finish time in seat-seconds while seats are free, and hold max(initial,
 * final) seats from dispatch until additionalLatency after they finish. A request wider than the
 * limit runs once nothing else executes. Reject levels (no queues) only check seats; exempt levels
 * admit everything but count it. admit's fast path (free seats, nothing waiting) allocates only
 * the request and a resolved promise.
 */
import type { AdmitRequest, AdmitResult, RejectReason } from '../interface.js';
import type { LevelSeries, FlowSeries } from './flow-metrics.js';
import { FairRequest, Queue, RequestState, estimatedServiceSeconds } from './queue.js';
import { Integrator } from './seat-demand.js';
import { Dealer, HandCache } from './shuffle-sharding.js';
import type { TimingRatioChild } from './timing-histogram.js';

/** The queuing parameters of a level; absent for Reject levels. */
export interface QueuingParams {
  readonly queues: number;
  readonly handSize: number;
  readonly queueLengthLimit: number;
}

/** The read-vs-write gauges every queue set of a dispatcher shares (phase x request kind). */
export interface ReadWriteGauges {
  readonly waiting: readonly [TimingRatioChild, TimingRatioChild];
  readonly executing: readonly [TimingRatioChild, TimingRatioChild];
}

const rejections: Record<RejectReason, AdmitResult> = {
  'queue-full': Object.freeze({ admitted: false, reason: 'queue-full' }),
  'concurrency-limit': Object.freeze({ admitted: false, reason: 'concurrency-limit' }),
  'time-out': Object.freeze({ admitted: false, reason: 'time-out' }),
  cancelled: Object.freeze({ admitted: false, reason: 'cancelled' }),
};

/** The fair queuing of one priority level. */
export class QueueSet {
  exempt = false;
  queuing: QueuingParams | undefined = undefined;
  concurrencyLimit = 0;
  queues: Queue[] = [];
  private hands: HandCache | undefined = undefined;
  /** Seat-seconds allocated per active queue since the set was made (kube's currentR). */
  currentR = 0;
  private lastSyncMs: number;
  private robinIndex = -1;
  private enqueues = 0;
  private activeQueues = 0;
  totRequestsWaiting = 0;
  totSeatsWaiting = 0;
  totRequestsExecuting = 0;
  totSeatsInUse = 0;
  totDispatched = 0;
  totRejected = 0;
  totTimedOut = 0;
  totCancelled = 0;
  /** Requests executing without a queue (exempt and Reject levels). */
  readonly queueless = new Set<FairRequest>();
  readonly demand: Integrator;
  /** Called when the set goes idle (a draining level may then be removed). */
  onIdle: (() => void) | undefined = undefined;
  private readonly endFn = (r: FairRequest): void => this.finishRequest(r);

  constructor(
    readonly name: string,
    readonly series: LevelSeries,
    private readonly rw: ReadWriteGauges,
    private readonly now: () => number,
  ) {
    this.lastSyncMs = now();
    this.demand = new Integrator(now);
  }

  /** Applies a level's (new) type and queuing; queues are added now and removed as they empty. */
  configure(exempt: boolean, queuing: QueuingParams | undefined, queueWaitLimitMs: number): void {
    this.sync();
    this.exempt = exempt;
    // kube's default wait limit for a request without a deadline (15 s) when none is configured.
    this.waitLimitMs = queueWaitLimitMs > 0 ? queueWaitLimitMs : 15_000;
    const same = queuing && this.queuing && queuing.queues === this.queuing.queues && queuing.handSize === this.queuing.handSize;
    this.queuing = exempt ? undefined : queuing;
    if (this.queuing && !same) {
      const dealer = Dealer.create(this.queuing.queues, this.queuing.handSize);
      if (typeof dealer === 'string') throw new Error(`priority level ${JSON.stringify(this.name)}: ${dealer}`);
      this.hands = new HandCache(dealer);
      for (let i = this.queues.length; i < this.queuing.queues; i++) this.queues.push(new Queue(i));
    }
    if (!this.queuing) this.hands = undefined;
    // Surplus queues that are already empty go now; the others go as they empty (kube's attrition).
    for (let i = this.queues.length - 1; i >= 0 && this.queues.length > (this.queuing?.queues ?? 0); i--) {
      const q = this.queues[i] as Queue;
      if (!q.active && q.seatsInUse === 0) this.removeQueue(q);
    }
    const qll = Math.max(1, this.queuing?.queueLengthLimit ?? 1) * Math.max(1, this.queuing?.queues ?? 1);
    this.series.waitingRatio.setDenominator(qll);
    this.dispatchAsMuchAsPossible();
  }

  private waitLimitMs = 0;

  /** Sets the current concurrency limit (after borrowing) and dispatches what now fits. */
  setConcurrencyLimit(limit: number, denominator: number): void {
    this.sync();
    this.concurrencyLimit = limit;
    this.series.executingRatio.setDenominator(denominator);
    this.series.seatRatio.setDenominator(denominator);
    this.series.demandRatio.setDenominator(denominator);
    this.dispatchAsMuchAsPossible();
  }

  /** Nothing waits and nothing executes. */
  isIdle(): boolean {
    return this.totRequestsWaiting === 0 && this.totRequestsExecuting === 0;
  }

  /** Admits, queues or rejects a request of this level. */
  start(req: AdmitRequest, series: FlowSeries): Promise<AdmitResult> {
    const now = this.now();
    this.sync(now);
    const w = req.work;
    const r = new FairRequest(series, req.classification.flowDistinguisher, Math.max(1, w.initialSeats), Math.max(0, w.finalSeats), w.additionalLatencyMs, req, req.user, req.requestInfo, req.mutating, now, this.endFn);
    if (this.exempt) {
      this.dispatchSansQueue(r);
      return Promise.resolve(r);
    }
    if (!this.queuing) {
      if (!this.canAccommodate(r.seats)) return Promise.resolve(this.reject(r, 'concurrency-limit'));
      this.dispatchSansQueue(r);
      return Promise.resolve(r);
    }
    const queue = this.chooseQueue(series.flowSchema, r.flowDistinguisher);
    r.queue = queue;
    r.arrivalR = this.currentR;
    if (this.totSeatsInUse >= this.concurrencyLimit && queue.length >= this.queuing.queueLengthLimit) return Promise.resolve(this.reject(r, 'queue-full'));
    if (!queue.active) queue.nextDispatchR = this.currentR;
    if (this.totRequestsWaiting === 0 && this.totSeatsInUse < this.concurrencyLimit && this.canAccommodate(r.cappedSeats(this.concurrencyLimit))) {
      // The only waiting request would be this one: kube enqueues and dispatches it at once; same result.
      // kube observes the length right after enqueueing, this request included.
      series.queueLength.observe(1);
      const wasActive = queue.active;
      this.dispatch(queue, r);
      if (!wasActive) this.activeQueues++;
      return Promise.resolve(r);
    }
    if (r.signal.aborted) return Promise.resolve(this.reject(r, 'cancelled'));
    return this.enqueue(queue, r);
  }

  private enqueue(queue: Queue, r: FairRequest): Promise<AdmitResult> {
    const promise = new Promise<AdmitResult>((resolve) => (r.resolve = resolve));
    if (!queue.active) this.activeQueues++;
    queue.enqueue(r);
    this.totRequestsWaiting++;
    this.totSeatsWaiting += r.seats;
    r.series.inqueueRequests.inc();
    r.series.inqueueSeats.inc(r.seats);
    r.series.queueLength.observe(queue.length);
    this.series.waitingRatio.add(1, this.lastSyncMs);
    this.rw.waiting[r.mutating ? 1 : 0].add(1, this.lastSyncMs);
    this.demandChanged();
    r.timer = setTimeout(() => this.leaveQueue(r, 'time-out'), this.waitLimitMs);
    r.onAbort = () => this.leaveQueue(r, 'cancelled');
    r.signal.addEventListener('abort', r.onAbort, { once: true });
    this.dispatchAsMuchAsPossible();
    return promise;
  }

  /** The queue of the flow's hand with the least waiting work, visiting the hand from a rotating offset (kube's tie-break). */
  private chooseQueue(flowSchema: string, distinguisher: string): Queue {
    const hand = (this.hands as HandCache).hand(flowSchema, distinguisher);
    const offset = this.enqueues % hand.length;
    this.enqueues++;
    let best = this.queues[hand[offset] as number] as Queue;
    for (let i = 1; i < hand.length; i++) {
      const q = this.queues[hand[(offset + i) % hand.length] as number] as Queue;
      if (q.totalWorkSum < best.totalWorkSum) best = q;
    }
    return best;
  }

  /** kube's canAccommodateSeatsLocked, including the idle exception for requests wider than the limit. */
  private canAccommodate(seats: number): boolean {
    if (this.exempt) return true;
    if (seats > this.concurrencyLimit) return this.totRequestsExecuting === 0;
    return this.totSeatsInUse + seats <= this.concurrencyLimit;
  }

  /** The seat demand (seats executing and waiting) changed: the borrowing statistics and demand_seats follow it. */
  private demandChanged(): void {
    const demand = this.totSeatsInUse + this.totSeatsWaiting;
    this.demand.set(demand, this.lastSyncMs);
    this.series.demandRatio.set(demand, this.lastSyncMs);
  }

  /** Advances R: the seats in use or asked for (at most the limit), shared by the active queues. */
  private sync(now = this.now()): void {
    const dt = now - this.lastSyncMs;
    this.lastSyncMs = now;
    if (dt > 0 && this.activeQueues > 0) {
      this.currentR += ((Math.min(this.totSeatsInUse + this.totSeatsWaiting, this.concurrencyLimit) / this.activeQueues) * dt) / 1000;
      this.series.currentR.set(this.currentR);
    }
  }

  private dispatchAsMuchAsPossible(): void {
    while (this.totRequestsWaiting !== 0 && this.totSeatsInUse < this.concurrencyLimit && this.dispatchNext());
  }

  /** Dispatches the oldest request of the queue with the earliest virtual finish, if it fits. */
  private dispatchNext(): boolean {
    let minFinish = Infinity;
    let minQueue: Queue | undefined;
    let minIndex = 0;
    let sMin = Infinity;
    let sMax = -Infinity;
    let dsMin = Infinity;
    let dsMax = -Infinity;
    const nq = this.queues.length;
    for (let k = 0; k < nq; k++) {
      this.robinIndex = (this.robinIndex + 1) % nq;
      const q = this.queues[this.robinIndex] as Queue;
      const oldest = q.head;
      if (!oldest) continue;
      const s = q.nextDispatchR;
      const ds = s - q.seatsInUse * estimatedServiceSeconds;
      if (s < sMin) sMin = s;
      if (s > sMax) sMax = s;
      if (ds < dsMin) dsMin = ds;
      if (ds > dsMax) dsMax = ds;
      const finish = s + oldest.totalWork;
      if (finish < minFinish) {
        minFinish = finish;
        minQueue = q;
        minIndex = this.robinIndex;
      }
    }
    const r = minQueue?.head;
    if (!minQueue || !r) return false;
    if (!this.canAccommodate(r.cappedSeats(this.concurrencyLimit))) {
      r.series.noAccommodation.inc();
      return false;
    }
    this.robinIndex = minIndex;
    const s = this.series;
    s.dispatchR.set(this.currentR);
    s.latestS.set(minQueue.nextDispatchR);
    s.sMin.set(sMin);
    s.sMax.set(sMax);
    s.dsMin.set(dsMin);
    s.dsMax.set(dsMax);
    this.unqueue(minQueue, r);
    this.dispatch(minQueue, r);
    this.boundNextDispatch(minQueue);
    (r.resolve as (x: AdmitResult) => void)(r);
    return true;
  }

  /** r leaves queue's FIFO: the waiting counts and gauges drop, its wait timer and abort listener go. */
  private unqueue(queue: Queue, r: FairRequest): void {
    queue.remove(r);
    if (r.timer) clearTimeout(r.timer);
    if (r.onAbort) r.signal.removeEventListener('abort', r.onAbort);
    this.totRequestsWaiting--;
    this.totSeatsWaiting -= r.seats;
    r.series.inqueueRequests.dec();
    r.series.inqueueSeats.dec(r.seats);
    this.series.waitingRatio.add(-1, this.lastSyncMs);
    this.rw.waiting[r.mutating ? 1 : 0].add(-1, this.lastSyncMs);
  }

  /** r starts executing from queue (already out of its FIFO). */
  private dispatch(queue: Queue, r: FairRequest): void {
    r.capFinalSeats(this.concurrencyLimit);
    this.begin(r);
    queue.executing.add(r);
    queue.seatsInUse += r.seats;
    queue.nextDispatchR += r.totalWork;
    r.series.waitExecuted.observe((r.startMs - r.arrivalMs) / 1000);
  }

  private dispatchSansQueue(r: FairRequest): void {
    this.begin(r);
    this.queueless.add(r);
    if (!this.exempt) r.series.waitExecuted.observe(0);
  }

  /** The accounting every dispatch shares. */
  private begin(r: FairRequest): void {
    r.state = RequestState.Executing;
    r.startMs = this.lastSyncMs;
    this.totDispatched++;
    this.totRequestsExecuting++;
    this.totSeatsInUse += r.seats;
    const f = r.series;
    f.dispatched.inc();
    f.executingRequests.inc();
    f.executingSeats.inc(r.seats);
    f.concurrencyInUse.inc(r.seats);
    this.series.executingRatio.add(1, this.lastSyncMs);
    this.series.seatRatio.add(r.seats, this.lastSyncMs);
    this.rw.executing[r.mutating ? 1 : 0].add(1, this.lastSyncMs);
    this.demandChanged();
  }

  /** kube's anti-windup: a queue's next dispatch is never before its oldest request's arrival. */
  private boundNextDispatch(queue: Queue): void {
    const oldest = queue.head;
    if (oldest && queue.nextDispatchR < oldest.arrivalR) queue.nextDispatchR = oldest.arrivalR;
  }

  private reject(r: FairRequest, reason: RejectReason): AdmitResult {
    r.state = RequestState.Rejected;
    this.totRejected++;
    r.series.reject(reason);
    r.series.waitRejected.observe((this.lastSyncMs - r.arrivalMs) / 1000);
    return rejections[reason];
  }

  /** A waiting request's wait limit passed or its client went away. */
  private leaveQueue(r: FairRequest, reason: 'time-out' | 'cancelled'): void {
    if (r.state !== RequestState.Waiting) return;
    this.sync();
    const queue = r.queue as Queue;
    this.unqueue(queue, r);
    if (!queue.active) this.activeQueues--;
    this.demandChanged();
    this.boundNextDispatch(queue);
    if (reason === 'time-out') this.totTimedOut++;
    else this.totCancelled++;
    (r.resolve as (x: AdmitResult) => void)(this.reject(r, reason));
    // The head may have been a wide request blocking the others.
    this.dispatchAsMuchAsPossible();
    if (this.isIdle()) this.onIdle?.();
  }

  /** finish(): the handler is done; seats go now or after the additional latency. */
  private finishRequest(r: FairRequest): void {
    this.sync();
    r.state = RequestState.Finished;
    const now = this.lastSyncMs;
    this.totRequestsExecuting--;
    r.series.executingRequests.dec();
    (r.requestInfo.verb === 'watch' ? r.series.execWatch : r.series.execRegular).observe((now - r.startMs) / 1000);
    this.series.executingRatio.add(-1, this.lastSyncMs);
    this.rw.executing[r.mutating ? 1 : 0].add(-1, this.lastSyncMs);
    const queue = r.queue;
    if (queue) {
      queue.executing.delete(r);
      if (!queue.active) this.activeQueues--;
      // Correct the estimate of the service time by what it really took.
      queue.nextDispatchR -= r.initialSeats * (estimatedServiceSeconds - (now - r.startMs) / 1000);
      this.boundNextDispatch(queue);
    } else {
      this.queueless.delete(r);
    }
    if (r.additionalLatencyMs > 0) {
      setTimeout(() => {
        this.sync();
        this.releaseSeats(r);
        this.dispatchAsMuchAsPossible();
        if (this.isIdle()) this.onIdle?.();
      }, r.additionalLatencyMs);
    } else {
      this.releaseSeats(r);
    }
    this.dispatchAsMuchAsPossible();
    if (this.isIdle()) this.onIdle?.();
  }

  private releaseSeats(r: FairRequest): void {
    r.state = RequestState.Done;
    this.totSeatsInUse -= r.seats;
    r.series.executingSeats.dec(r.seats);
    r.series.concurrencyInUse.dec(r.seats);
    this.series.seatRatio.add(-r.seats, this.lastSyncMs);
    this.demandChanged();
    const queue = r.queue;
    if (!queue) return;
    queue.seatsInUse -= r.seats;
    // Queues beyond the desired number go once they are empty.
    const desired = this.queuing?.queues ?? 0;
    if (this.queues.length > desired && !queue.active && queue.seatsInUse === 0 && this.queues[queue.index] === queue) this.removeQueue(queue);
  }

  private removeQueue(queue: Queue): void {
    this.queues.splice(queue.index, 1);
    for (let i = queue.index; i < this.queues.length; i++) (this.queues[i] as Queue).index = i;
    // Keep robinIndex + 1 the queue after the one last dispatched from.
    if (this.robinIndex >= queue.index) this.robinIndex--;
  }
}
