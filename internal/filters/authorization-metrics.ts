/**
 * What the authorization filter records of each decision (kube's recordAuthorizationMetrics):
 * authorization_attempts_total and authorization_duration_seconds by result, which is "allowed",
 * "error" (nobody allowed and an authorizer failed), "denied" or "no-opinion". Label children are
 * resolved once, so recording costs no lookup per request.
 */
import type { AuthorizationAttributes, AuthorizationDecision } from '../authz/interface.js';
import type { ServerMetrics } from '../observability/metrics.js';

/** The observe hook for withAuthorization, recording into metrics. */
export function observeAuthorization(metrics: ServerMetrics): (attrs: AuthorizationAttributes, d: AuthorizationDecision, seconds: number) => void {
  const results = ['allowed', 'error', 'denied', 'no-opinion'] as const;
  const attempts = Object.fromEntries(results.map((r) => [r, metrics.authorizationAttempts.labels({ result: r })]));
  const durations = Object.fromEntries(results.map((r) => [r, metrics.authorizationDuration.labels({ result: r })]));
  return (_attrs, d, seconds) => {
    const result = d.decision === 'Allow' ? 'allowed' : d.error ? 'error' : d.decision === 'Deny' ? 'denied' : 'no-opinion';
    attempts[result]?.inc();
    durations[result]?.observe(seconds);
  };
}
