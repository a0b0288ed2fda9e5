/**
 * How audit backends report events they could not deliver (kube's audit.HandlePluginError): the
 * events are counted against the plugin (apiserver_audit_error_total{plugin}) and logged, one
 * line per event, so that a dropped event still leaves a trace in the server's log.
 */
import type { AuditBackendObserver, AuditEvent } from './interface.js';
import { eventString } from './log/legacy.js';


/**
 * Reports that plugin failed to deliver events because of err: counts them and, when the observer
 * logs, logs kube's message with every impacted event. Never throws.
 */
export function reportPluginError(observer: AuditBackendObserver | undefined, plugin: string, err: unknown, events: readonly AuditEvent[]): void {
  if (!observer || events.length === 0) return;
  try {
    observer.error(plugin, events.length);
    if (observer.logError) {
      const reason = err instanceof Error ? err.message : String(err);
      let msg = `Error in audit plugin '${plugin}' affecting ${events.length} audit events: ${reason}\nImpacted events:\n`;
      for (const ev of events) msg += `${eventString(ev)}\n`;
      observer.logError(msg);
    }
  } catch {
    // A failing observer must not turn a dropped event into a failed request.
  }
}
