/**
 * PLACEHOLDER for the audit-backends helper's UnionBackend (kube's audit.Union), replaced at
 * merge: every backend gets every event; true only when all took them.
 */
import type { AuditBackend, AuditEvent } from './interface.js';

/** Stand-in with the real class's constructor. */
export class UnionBackend implements AuditBackend {
  readonly name: string;

  constructor(private readonly backends: readonly AuditBackend[]) {
    this.name = `union[${backends.map((b) => b.name).join(',')}]`;
  }

  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    const results = this.backends.map((b) => b.processEvents(events));
    if (results.every((r) => typeof r === 'boolean')) return results.every(Boolean);
    return Promise.all(results).then((all) => all.every(Boolean));
  }

  run(): void {
    for (const b of this.backends) b.run?.();
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.backends.map((b) => b.shutdown()));
  }
}
