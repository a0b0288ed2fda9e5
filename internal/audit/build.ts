/**
 * Builds auditing from the audit flags as kube's AuditOptions.ApplyTo does: the policy
 * (--audit-policy-file), the log backend (--audit-log-path) and the webhook backend
 * (--audit-webhook-config-file), each wrapped for its mode (batch: buffered; blocking: waited for,
 * failures ignored; blocking-strict: waited for, a failure fails the request) and then, when
 * enabled, in truncation (truncate wraps the buffered backend, as in kube); both together as a
 * union. Without a policy nothing is audited (the log file is still created, as kube's
 * ensureLogFile does); without a backend neither. A policy or backend that cannot be loaded
 * refuses the start.
 */
import type { Logger } from '../observability/logging.js';
import type { AuditBackendOptions, AuditOptions } from '../server/options/audit.js';
import { BufferedBackend } from './buffered.js';
import { IgnoreErrorsBackend } from './ignore-errors.js';
import type { AuditBackend, AuditBackendObserver, AuditPolicyEvaluator } from './interface.js';
import { LogBackend } from './log/backend.js';
import { openLogSink } from './log/open.js';
import type { AuditMetrics } from './metrics.js';
import { PolicyRuleEvaluator } from './policy/evaluator.js';
import { loadPolicyFile } from './policy/load.js';
import { TruncatingBackend } from './truncate.js';
import { UnionBackend } from './union.js';
import { loadWebhookBackend } from './webhook.js';

/** Auditing as the server runs it. */
export interface Audit {
  readonly policy: AuditPolicyEvaluator;
  /** Every backend, as one; run() once serving, shutdown() once the server has stopped. */
  readonly backend: AuditBackend;
}

/** kube's AuditBatchOptions.wrapBackend. */
function wrapMode(delegate: AuditBackend, opts: AuditBackendOptions, observer: AuditBackendObserver): AuditBackend {
  if (opts.mode === 'blocking-strict') return delegate;
  if (opts.mode === 'blocking') return new IgnoreErrorsBackend(delegate);
  return new BufferedBackend(delegate, opts.batch, observer);
}

/** kube's AuditTruncateOptions.wrapBackend. */
function wrapTruncate(delegate: AuditBackend, opts: AuditBackendOptions, observer: AuditBackendObserver): AuditBackend {
  return opts.truncateEnabled ? new TruncatingBackend(delegate, opts.truncate, observer) : delegate;
}

/** Builds auditing; undefined when nothing is audited. Throws (kube's messages) when the policy or a backend cannot be loaded. */
export async function buildAudit(opts: AuditOptions | undefined, deps: { readonly metrics: AuditMetrics; readonly log: Logger }): Promise<Audit | undefined> {
  if (!opts) return undefined;
  let policy: AuditPolicyEvaluator | undefined;
  if (opts.policyFile) {
    try {
      policy = new PolicyRuleEvaluator(await loadPolicyFile(opts.policyFile, (m) => deps.log.warn(m)));
    } catch (err) {
      throw new Error(`loading audit policy file: ${(err as Error).message}`);
    }
  }
  const observer = deps.metrics.observer;
  const backends: AuditBackend[] = [];
  if (opts.log.path) {
    const sink = await openLogSink({
      filename: opts.log.path,
      maxSizeMB: opts.log.maxSize,
      maxBackups: opts.log.maxBackups,
      maxAgeDays: opts.log.maxAge,
      compress: opts.log.compress,
      onError: (m) => deps.log.error(`audit log rotation: ${m}`),
    });
    if (!policy) {
      deps.log.v(2, 'No audit policy file provided, no events will be recorded for log backend');
      await sink.close();
    } else {
      backends.push(wrapTruncate(wrapMode(new LogBackend(sink, opts.log.format, observer), opts.log, observer), opts.log, observer));
    }
  }
  if (opts.webhook.configFile) {
    if (!policy) {
      deps.log.v(2, 'No audit policy file provided, no events will be recorded for webhook backend');
    } else {
      const webhook = await loadWebhookBackend({ configFile: opts.webhook.configFile, initialBackoffMs: opts.webhook.initialBackoffMs, version: opts.webhook.version, observer });
      backends.push(wrapTruncate(wrapMode(webhook, opts.webhook, observer), opts.webhook, observer));
    }
  }
  if (!policy || backends.length === 0) return undefined;
  const backend = backends.length === 1 ? (backends[0] as AuditBackend) : new UnionBackend(backends);
  deps.log.v(2, `Using audit backend: ${backend.name}`);
  return { policy, backend };
}
