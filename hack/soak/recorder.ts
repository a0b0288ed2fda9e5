/**
 * What the load observes between two sampler ticks: every request's kind, verb, status code and
 * latency, watch events received, relists, and defect-class events. The sampler drains it once a
 * tick; the load only appends. A status code of 0 stands for a request that got no answer
 * (connection refused or reset, timeout).
 */

/** One request as the load saw it. */
export interface RequestRecord {
  /** The request's kind for latency (get, list, list-rv0, table, create, ...). */
  readonly kind: string;
  /** The HTTP verb or kubectl. */
  readonly verb: string;
  readonly code: number;
  readonly ms: number;
  /** Milliseconds since the soak started, when the answer came. */
  readonly at: number;
}

/** A defect-class event: the run fails when there is one. */
export interface Defect {
  readonly at: number;
  readonly what: string;
}

/** What the recorder held since the last drain. */
export interface Drained {
  readonly requests: RequestRecord[];
  readonly watchEvents: number;
  readonly relists: number;
}

/** The shared sink the load writes to and the sampler drains. */
export class Recorder {
  readonly defects: Defect[] = [];
  /** Things worth a line in the report that do not fail the run. */
  readonly notes: Defect[] = [];
  private requests: RequestRecord[] = [];
  private watchEvents = 0;
  private relists = 0;

  constructor(private startedAt: number) {}

  /** Starts the clock again at now and forgets what was recorded (the setup's requests). */
  restart(): void {
    this.startedAt = Date.now();
    this.drain();
  }

  /** Milliseconds since the soak started. */
  now(): number {
    return Date.now() - this.startedAt;
  }

  /** Records one answered (or unanswered, code 0) request that began at beganAt (Date.now()). */
  request(kind: string, verb: string, code: number, beganAt: number): void {
    const end = Date.now();
    this.requests.push({ kind, verb, code, ms: end - beganAt, at: end - this.startedAt });
  }

  /** Counts n watch events received. */
  watchEvent(n = 1): void {
    this.watchEvents += n;
  }

  /** Counts one relist (a list after a 410 or at an informer's start). */
  relist(): void {
    this.relists++;
  }

  /** Records a defect-class event; printed at once so a long run shows it when it happens. */
  defect(what: string): void {
    this.defects.push({ at: this.now(), what });
    process.stderr.write(`soak: DEFECT at ${(this.now() / 1000).toFixed(1)}s: ${what}\n`);
  }

  /** Records a note for the report. */
  note(what: string): void {
    this.notes.push({ at: this.now(), what });
    process.stdout.write(`soak: ${what}\n`);
  }

  /** Hands out and forgets what was recorded since the last drain. */
  drain(): Drained {
    const out = { requests: this.requests, watchEvents: this.watchEvents, relists: this.relists };
    this.requests = [];
    this.watchEvents = 0;
    this.relists = 0;
    return out;
  }
}
