/**
 * PLACEHOLDER for the audit-backends helper's webhook backend, replaced at merge. Until then a
 * configured --audit-webhook-config-file refuses the start with this message rather than being
 * ignored.
 */
import type { AuditBackend, AuditBackendObserver } from './interface.js';

/** Stand-in with the real function's signature. */
export async function loadWebhookBackend(opts: { configFile: string; initialBackoffMs: number; version: string; observer?: AuditBackendObserver }): Promise<AuditBackend> {
  throw new Error(`initializing audit webhook: the webhook backend is not part of this build (${opts.configFile})`);
}
