/**
 * PLACEHOLDER for the audit-backends helper's TruncatingBackend (kube's truncate plugin), replaced
 * at merge: here it hands events unchanged to its delegate so that the wiring compiles and runs.
 */
import type { AuditBackend, AuditEvent, TruncateConfig } from './interface.js';

/** Pass-through stand-in with the real class's constructor. */
export class TruncatingBackend implements AuditBackend {
  readonly name: string;

  constructor(
    private readonly delegate: AuditBackend,
    _config: TruncateConfig,
  ) {
    this.name = `truncate<${delegate.name}>`;
  }

  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    return this.delegate.processEvents(events);
  }

  run(): void {
    this.delegate.run?.();
  }

  shutdown(): Promise<void> {
    return this.delegate.shutdown();
  }
}
