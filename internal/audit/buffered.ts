/**
 * PLACEHOLDER for the audit-backends helper's BufferedBackend (kube's batch mode), replaced at
 * merge: here it hands events straight to its delegate so that the wiring compiles and runs.
 */
import type { AuditBackend, AuditBackendObserver, AuditEvent, BatchConfig } from './interface.js';

/** Pass-through stand-in with the real class's constructor. */
export class BufferedBackend implements AuditBackend {
  readonly name: string;

  constructor(
    private readonly delegate: AuditBackend,
    _config: BatchConfig,
    _observer?: AuditBackendObserver,
  ) {
    this.name = `buffered<${delegate.name}>`;
  }

  processEvents(events: readonly AuditEvent[]): boolean {
    void this.delegate.processEvents(events);
    return true;
  }

  run(): void {
    this.delegate.run?.();
  }

  shutdown(): Promise<void> {
    return this.delegate.shutdown();
  }
}
