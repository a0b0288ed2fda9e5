/**
 * The log backend (kube's plugin/pkg/audit/log): each event becomes one line in the chosen format
 * ("json": the Event as JSON; "legacy": kube's one-line text) written to --audit-log-path, or to
 * standard output for "-". Lines are written in the order events arrive. processEvents resolves
 * once the lines were written: true when all were, false when one could not be encoded or written
 * (kube's HandlePluginError: counted in apiserver_audit_error_total{plugin="log"} and logged).
 */
import type { AuditBackend, AuditBackendObserver, AuditEvent } from '../interface.js';
import { encodeEventJson } from './json.js';
import { eventString } from './legacy.js';
import type { LogSink } from './rotating-file.js';

/** The plugin name kube reports the log backend's errors under. */
export const logPluginName = 'log';

/** --audit-log-format values, in the order kube lists them. */
export const logFormats = ['legacy', 'json'] as const;

/** One --audit-log-format value. */
export type LogFormat = (typeof logFormats)[number];

/** Standard output as a sink (--audit-log-path=-). */
export const stdoutSink: LogSink = {
  write: (line) =>
    new Promise<void>((resolve, reject) => {
      process.stdout.write(line, (err) => (err ? reject(err) : resolve()));
    }),
  close: async () => undefined,
};

/** Writes events to a sink, one line each. */
export class LogBackend implements AuditBackend {
  readonly name = logPluginName;
  private readonly encode: (ev: AuditEvent) => string;

  constructor(
    private readonly sink: LogSink,
    format: LogFormat,
    private readonly observer?: AuditBackendObserver,
  ) {
    this.encode = format === 'json' ? encodeEventJson : eventString;
  }

  processEvents(events: readonly AuditEvent[]): Promise<boolean> {
    if (events.length === 1) return this.logEvent(events[0] as AuditEvent);
    return Promise.all(events.map((ev) => this.logEvent(ev))).then((results) => results.every(Boolean));
  }

  async shutdown(): Promise<void> {
    await this.sink.close();
  }

  private logEvent(ev: AuditEvent): Promise<boolean> {
    let line: string;
    try {
      line = `${this.encode(ev)}\n`;
    } catch (err) {
      this.report(err, ev);
      return Promise.resolve(false);
    }
    return this.sink.write(line).then(
      () => true,
      (err: unknown) => {
        this.report(err, ev);
        return false;
      },
    );
  }

  /** kube's HandlePluginError for this plugin: count, then log the error with the event. */
  private report(err: unknown, ev: AuditEvent): void {
    if (!this.observer) return;
    try {
      this.observer.error(logPluginName, 1);
      this.observer.logError?.(
        `Error in audit plugin '${logPluginName}' affecting 1 audit events: ${err instanceof Error ? err.message : String(err)}\nImpacted events:\n${eventString(ev)}\n`,
      );
    } catch {
      // A failing observer must not fail the request.
    }
  }
}
