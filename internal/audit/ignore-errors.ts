/**
 * kube's blocking mode (ignoreErrorsBackend): the request waits for its events to be handed to
 * the backend, but a failure to deliver them (already counted and logged by the backend) does not
 * fail the request. blocking-strict uses the backend unwrapped, so that its failure does.
 */
import type { AuditBackend, AuditEvent } from './interface.js';

/** Waits for delegate, always answers true. */
export class IgnoreErrorsBackend implements AuditBackend {
  readonly name: string;

  constructor(private readonly delegate: AuditBackend) {
    this.name = `ignoreErrors<${delegate.name}>`;
  }

  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    const r = this.delegate.processEvents(events);
    return r instanceof Promise ? r.then(
      () => true,
      () => true,
    ) : true;
  }

  run(): void {
    this.delegate.run?.();
  }

  shutdown(): Promise<void> {
    return this.delegate.shutdown();
  }
}
