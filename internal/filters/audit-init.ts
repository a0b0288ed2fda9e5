/**
 * The audit-init filter (kube's WithAuditInit), first in the chain: gives every request its audit
 * ID, the client's Audit-ID header when it sent one (kept as is) or a new UUID, and echoes it in
 * the Audit-Id response header, whether or not the request is audited, as kube-apiserver does.
 * When auditing is on it also notes when the request arrived, to the microsecond, for the event's
 * requestReceivedTimestamp.
 */
import { randomUUID } from 'node:crypto';
import { nowMicros } from '../audit/micro-time.js';
import type { RequestContext } from '../request/context.js';
import type { Filter } from './interface.js';

/** kube's auditinternal.HeaderAuditID, as Go writes it on the wire. */
export const auditIDHeader = 'Audit-Id';

const receivedMicros = new WeakMap<RequestContext, number>();

/** When ctx's request arrived in epoch microseconds (from withAuditInit, else the context's own time). */
export function requestReceivedMicros(ctx: RequestContext): number {
  return receivedMicros.get(ctx) ?? ctx.receivedAt * 1000;
}

/** Builds the filter; auditing tells it to note arrival times (nothing else changes). */
export function withAuditInit(auditing: boolean): Filter {
  return (req, res, state) => {
    if (auditing) receivedMicros.set(state.ctx, nowMicros());
    const sent = req.headers['audit-id'];
    const id = typeof sent === 'string' && sent !== '' ? sent : randomUUID();
    state.ctx.auditID = id;
    res.setHeader(auditIDHeader, id);
    return undefined;
  };
}
