/**
 * EventQueue: a single-consumer async queue that a producer pushes watch events into and a
 * consumer drains with for-await. Ending the queue lets the consumer finish what is buffered.
 */

/** An unbounded single-consumer queue exposed as an async iterable. */
export class EventQueue<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private head = 0;
  private waiter: ((r: IteratorResult<T>) => void) | undefined;
  private ended = false;
  private onReturn: (() => void) | undefined;

  /** Sets what runs when the consumer stops iterating early (break, return, throw). */
  onConsumerDone(fn: () => void): void {
    this.onReturn = fn;
  }

  /** Adds an item; ignored once the queue has ended. Never blocks. */
  push(item: T): void {
    if (this.ended) return;
    const w = this.waiter;
    if (w) {
      this.waiter = undefined;
      w({ value: item, done: false });
      return;
    }
    this.buffer.push(item);
  }

  /** Marks the end: the consumer receives what is buffered, then done. Idempotent. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    const w = this.waiter;
    if (w) {
      this.waiter = undefined;
      w({ value: undefined, done: true });
    }
  }

  /** The next buffered item without waiting, or undefined when none is buffered. */
  takeReady(): T | undefined {
    if (this.head >= this.buffer.length) return undefined;
    const value = this.buffer[this.head] as T;
    this.buffer[this.head] = undefined as T;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.buffer.length) {
      this.buffer.splice(0, this.head);
      this.head = 0;
    }
    return value;
  }

  /** How many items wait to be consumed. */
  get length(): number {
    return this.buffer.length - this.head;
  }

  /** Whether end() was called. */
  get isEnded(): boolean {
    return this.ended;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.head < this.buffer.length) return Promise.resolve({ value: this.takeReady() as T, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiter = resolve;
        });
      },
      return: () => {
        this.end();
        this.onReturn?.();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
