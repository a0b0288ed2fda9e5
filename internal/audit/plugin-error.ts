/**
 * How audit backends report events they could not deliver (kube's audit.HandlePluginError): the
 * events are counted against the plugin (apiserver_audit_error_total{plugin}) and logged, one
 * line per event, so that a dropped event still leaves a trace in the server's log.
 */
import type { AuditBackendObserver, AuditEvent } from './interface.js';

/** Go's RFC3339Nano: the fraction loses its trailing zeros (and its dot when nothing is left). */
function rfc3339Nano(ts: string): string {
  return ts.replace(/\.(\d*?)0+(?=Z|[+-])/, (_m, digits: string) => (digits ? `.${digits}` : ''));
}

function quotedList(list: readonly string[]): string {
  return list.map((s) => JSON.stringify(s)).join(',');
}

/** kube's one-line text form of an event (audit.EventString), as its plugin-error log shows it. */
export function eventString(ev: AuditEvent): string {
  const user = ev.user?.username ? ev.user.username : '<none>';
  const groups = ev.user?.username && ev.user.groups && ev.user.groups.length > 0 ? quotedList(ev.user.groups) : '<none>';
  const as = ev.impersonatedUser ? ev.impersonatedUser.username : '<self>';
  const asGroups = ev.impersonatedUser?.groups ? quotedList(ev.impersonatedUser.groups) : '<lookup>';
  const namespace = ev.objectRef?.namespace ? ev.objectRef.namespace : '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code) : '<deferred>';
  const ip = ev.sourceIPs && ev.sourceIPs.length > 0 ? ev.sourceIPs[0]! : '<unknown>';
  const q = JSON.stringify;
  return (
    `${rfc3339Nano(ev.requestReceivedTimestamp)} AUDIT: id=${q(ev.auditID)} stage=${q(ev.stage)} ip=${q(ip)} method=${q(ev.verb)} ` +
    `user=${q(user)} groups=${q(groups)} as=${q(as)} asgroups=${q(asGroups)} user-agent=${q(ev.userAgent ?? '')} ` +
    `namespace=${q(namespace)} uri=${q(ev.requestURI)} response="${response}"`
  );
}

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
