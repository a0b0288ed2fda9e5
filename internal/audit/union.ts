/**
 * Several audit backends as one (kube's audit.Union): every event goes to every backend, and the
 * union succeeds only when all of them did.
 */
import type { AuditBackend, AuditEvent } from './interface.js';

/** Fans events out to backends (kube's union[a,b]). */
export class UnionBackend implements AuditBackend {
  readonly name: string;

  /** backends are called in order; none may be added later. */
  constructor(private readonly backends: readonly AuditBackend[]) {
    this.name = `union[${backends.map((b) => b.name).join(',')}]`;
  }

  /**
   * Gives events to every backend. Returns a boolean when every backend answered synchronously, so
   * a request with only synchronous backends never waits; a promise otherwise.
   */
  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    let success = true;
    let pending: Promise<boolean>[] | undefined;
    for (const b of this.backends) {
      const r = b.processEvents(events);
      if (r === false) success = false;
      else if (r !== true) (pending ??= []).push(r);
    }
    if (!pending) return success;
    return Promise.all(pending).then((results) => success && results.every(Boolean));
  }

  /** Runs every backend. */
  run(): void {
    for (const b of this.backends) b.run?.();
  }

  /**
   * Shuts every backend down at once. kube stops them all together (one stop channel) and then
   * waits for each; starting every flush at the same moment is the same, and no backend keeps
   * taking events while another one flushes.
   */
  async shutdown(): Promise<void> {
    const results = await Promise.allSettled(this.backends.map((b) => b.shutdown()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
