/**
 * The authentication filter's metrics, as kube's endpoints/filters record them: every attempt
 * counted and timed by result ("success"; "failure": no user, e.g. no credential with anonymous
 * requests off; "error": a credential was presented and is invalid), and every success counted
 * by a compressed username (a few well-known names, "email_id" for names with "@", else "other")
 * so that the label's cardinality stays small and no real user name reaches the metrics.
 */
import type { ServerMetrics } from './metrics.js';

/** An authentication outcome, as the filter reports it. */
export type AuthenticationOutcome = 'success' | 'failure' | 'error';

/** kube's compressUsername. */
export function compressUsername(name: string): string {
  switch (name) {
    case 'admin':
    case 'client':
    case 'kube_proxy':
    case 'kubelet':
    case 'system:serviceaccount:kube-system:default':
      return name;
    default:
      return name.includes('@') ? 'email_id' : 'other';
  }
}

/**
 * The observe hook of withAuthentication recording into metrics. Label children are bound once,
 * so a request costs two increments and one observation, no label lookup.
 */
export function observeAuthentication(metrics: ServerMetrics): (result: AuthenticationOutcome, seconds: number, username?: string) => void {
  const outcomes = ['success', 'failure', 'error'] as const;
  const attempts = Object.fromEntries(outcomes.map((r) => [r, metrics.authenticationAttempts.labels(r)]));
  const durations = Object.fromEntries(outcomes.map((r) => [r, metrics.authenticationDuration.labels(r)]));
  const users = new Map<string, ReturnType<ServerMetrics['authenticatedUserRequests']['labels']>>();
  return (result, seconds, username) => {
    attempts[result]?.inc();
    durations[result]?.observe(seconds);
    if (result !== 'success' || username === undefined) return;
    const label = compressUsername(username);
    let child = users.get(label);
    if (!child) users.set(label, (child = metrics.authenticatedUserRequests.labels(label)));
    child.inc();
  };
}
