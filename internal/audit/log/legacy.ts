/**
 * The log backend's "legacy" format: kube's audit.EventString, one line per event:
 * `<received RFC3339Nano> AUDIT: id="..." stage="..." ip="..." method="..." user="..." groups="..."
 * as="..." asgroups="..." user-agent="..." namespace="..." uri="..." response="..."`, with Go's %q
 * quoting, "<none>", "<self>", "<lookup>", "<unknown>" and "<deferred>" for what is absent, and the
 * groups a quoted list itself quoted again.
 */
import { goQuote } from '../../validation/field-error.js';
import type { AuditEvent } from '../interface.js';
import { rfc3339NanoLocal } from '../micro-time.js';

function quotedList(list: readonly string[]): string {
  return list.map(goQuote).join(',');
}

/** kube's one-line text form of an event (without the newline). */
export function eventString(ev: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if (ev.user.username) {
    username = ev.user.username;
    if (ev.user.groups && ev.user.groups.length > 0) groups = quotedList(ev.user.groups);
  }
  let as = '<self>';
  let asGroups = '<lookup>';
  if (ev.impersonatedUser) {
    as = ev.impersonatedUser.username ?? '';
    if (ev.impersonatedUser.groups) asGroups = quotedList(ev.impersonatedUser.groups);
  }
  const namespace = ev.objectRef?.namespace ? ev.objectRef.namespace : '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code) : '<deferred>';
  const ip = ev.sourceIPs && ev.sourceIPs.length > 0 ? (ev.sourceIPs[0] as string) : '<unknown>';
  return (
    `${rfc3339NanoLocal(ev.requestReceivedTimestamp)} AUDIT: id=${goQuote(ev.auditID)} stage=${goQuote(ev.stage)} ip=${goQuote(ip)} ` +
    `method=${goQuote(ev.verb)} user=${goQuote(username)} groups=${goQuote(groups)} as=${goQuote(as)} asgroups=${goQuote(asGroups)} ` +
    `user-agent=${goQuote(ev.userAgent ?? '')} namespace=${goQuote(namespace)} uri=${goQuote(ev.requestURI)} response="${response}"`
  );
}
