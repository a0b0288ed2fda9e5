/**
 * The fault policy of one etcd member in the client's pool: after three recoverable failures in a
 * row the member is passed over (calls go to the other members) for a second, then tried again.
 *
 * The etcd3 client's own breaker passes a member over for five seconds. When the leader dies, the
 * surviving members answer "no leader" (UNAVAILABLE) until they have elected a new one, about a
 * second later; a five-second breaker can pass over every member at once for five seconds after
 * the election. kube's etcd client has no breaker at all: it retries on the next member. One second keeps a dead member from taking every call's first attempt, and lets the
 * survivors serve as soon as they have a leader.
 */
import { isRecoverableError } from 'etcd3';

/** How long a member that failed three calls in a row is passed over. */
export const memberPassOverMs = 1000;
const failuresToPassOver = 3;

/** Thrown (without calling the member) while it is passed over; not recoverable, so its channels stay. */
export class MemberPassedOverError extends Error {
  constructor(host: string) {
    super(`etcd member ${host}: passed over for ${memberPassOverMs}ms after ${failuresToPassOver} failed calls in a row`);
    this.name = 'MemberPassedOverError';
  }
}

/** A member's policy: the pool calls execute(fn) for every call it sends there. */
export class MemberBreaker {
  private failures = 0;
  private passOverUntil = 0;

  constructor(
    private readonly host: string,
    private readonly now: () => number = Date.now,
  ) {}

  async execute<T>(fn: () => T | PromiseLike<T>): Promise<T> {
    if (this.passOverUntil > this.now()) throw new MemberPassedOverError(this.host);
    try {
      const out = await fn();
      this.failures = 0;
      return out;
    } catch (err) {
      if (err instanceof Error && isRecoverableError(err) && ++this.failures >= failuresToPassOver) {
        this.failures = 0;
        this.passOverUntil = this.now() + memberPassOverMs;
      }
      throw err;
    }
  }
}
