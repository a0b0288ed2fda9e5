/**
 * client-go's flowcontrol.Backoff as kubelet uses it for crashing containers and failed image
 * pulls: per key, the first step waits the initial duration, each further step doubles up to the
 * max; an entry idle for twice the max starts over (so a container that ran 10 minutes is back to
 * 10 s). Also Go's time.Duration formatting, which kubelet's messages print.
 */

interface Entry {
  backoffMs: number;
  lastUpdateMs: number;
}

/** Per-key exponential back-off. */
export class Backoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private expired(e: Entry, atMs: number): boolean {
    return atMs - e.lastUpdateMs > this.maxMs * 2;
  }

  /** The current back-off of key (0 when none). */
  get(key: string): number {
    return this.entries.get(key)?.backoffMs ?? 0;
  }

  /** Steps key's back-off at eventMs (initial, or doubled up to the max). */
  next(key: string, eventMs: number): void {
    const e = this.entries.get(key);
    if (!e || this.expired(e, eventMs)) this.entries.set(key, { backoffMs: this.initialMs, lastUpdateMs: eventMs });
    else {
      e.backoffMs = Math.min(e.backoffMs * 2, this.maxMs);
      e.lastUpdateMs = eventMs;
    }
  }

  /** True while less than the back-off passed since eventMs (kubelet: since the container finished). */
  isInBackOffSince(key: string, eventMs: number): boolean {
    const e = this.entries.get(key);
    if (!e || this.expired(e, this.now())) return false;
    return this.now() - eventMs < e.backoffMs;
  }

  /** True while less than the back-off passed since the last step (image pulls). */
  isInBackOffSinceUpdate(key: string): boolean {
    const e = this.entries.get(key);
    if (!e || this.expired(e, this.now())) return false;
    return this.now() - e.lastUpdateMs < e.backoffMs;
  }

  /** When key last stepped (ms epoch). */
  lastUpdate(key: string): number | undefined {
    return this.entries.get(key)?.lastUpdateMs;
  }

  /** When key's back-off since eventMs ends (ms epoch), for scheduling the next sync. */
  until(key: string, eventMs: number): number | undefined {
    const e = this.entries.get(key);
    return e ? eventMs + e.backoffMs : undefined;
  }

  /** Forgets keys starting with prefix (a removed pod's). */
  forget(prefix: string): void {
    for (const k of [...this.entries.keys()]) if (k.startsWith(prefix)) this.entries.delete(k);
  }

  /** Drops entries idle past twice the max (client-go's GC). */
  gc(): void {
    const now = this.now();
    for (const [k, e] of this.entries) if (this.expired(e, now)) this.entries.delete(k);
  }
}

/** Go's time.Duration.String() of ms (e.g. 10s, 1m20s, 5m0s, 523ms, 1.5s). */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const totalSec = ms / 1000;
  const h = Math.floor(totalSec / 3600);
  const m = Math.floor((totalSec % 3600) / 60);
  const s = +(totalSec % 60).toFixed(3);
  const sec = `${s}s`;
  if (h > 0) return `${h}h${m}m${sec}`;
  if (m > 0) return `${m}m${sec}`;
  return sec;
}
