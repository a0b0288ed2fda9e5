/**
 * Test support: audit events and a recording audit backend for the backends' and decorators' tests.
 */
import type { AuditBackend, AuditBackendObserver, AuditEvent, AuditLevel } from '../../internal/audit/interface.js';

/** An audit.k8s.io/v1 Event for request n (its auditID is `id-<n>`). */
export function auditEvent(n: number, extra: Partial<AuditEvent> = {}): AuditEvent {
  return {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata' as AuditLevel,
    auditID: `id-${n}`,
    stage: 'ResponseComplete',
    requestURI: `/api/v1/namespaces/default/configmaps/cm-${n}`,
    verb: 'get',
    user: { username: 'alice', groups: ['system:authenticated'] },
    sourceIPs: ['127.0.0.1'],
    userAgent: 'test',
    objectRef: { resource: 'configmaps', namespace: 'default', name: `cm-${n}`, apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: 200 },
    requestReceivedTimestamp: '2025-01-02T03:04:05.123450Z',
    stageTimestamp: '2025-01-02T03:04:05.223450Z',
    ...extra,
  };
}

/** Events 0..count-1 (or from..from+count-1). */
export function auditEvents(count: number, from = 0): AuditEvent[] {
  return Array.from({ length: count }, (_, i) => auditEvent(from + i));
}

/** A backend that records the batches it is given; answers with answer() (true unless told). */
export class RecordingBackend implements AuditBackend {
  readonly batches: AuditEvent[][] = [];
  /** When each batch arrived (performance.now). */
  readonly times: number[] = [];
  running = false;
  shutDown = false;
  /** Most batches held at once (for a delegate whose answer is a promise). */
  maxConcurrent = 0;
  private concurrent = 0;

  constructor(
    readonly name = 'recorder',
    private readonly answer: (batch: readonly AuditEvent[]) => boolean | Promise<boolean> = () => true,
  ) {}

  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    this.batches.push([...events]);
    this.times.push(performance.now());
    const r = this.answer(events);
    if (typeof r === 'boolean') return r;
    this.concurrent++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.concurrent);
    return r.finally(() => this.concurrent--);
  }

  /** Every event received, in order. */
  get events(): AuditEvent[] {
    return this.batches.flat();
  }

  run(): void {
    this.running = true;
  }

  async shutdown(): Promise<void> {
    this.shutDown = true;
  }
}

/** An observer that records what backends report. */
export function recordingObserver(): AuditBackendObserver & { errors: Array<[string, number]>; logs: string[] } {
  const errors: Array<[string, number]> = [];
  const logs: string[] = [];
  return {
    errors,
    logs,
    error: (plugin, count) => void errors.push([plugin, count]),
    logError: (message) => void logs.push(message),
  };
}

/** Resolves after ms milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
