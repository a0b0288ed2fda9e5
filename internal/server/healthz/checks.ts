/**
 * The generic health checks kube-apiserver installs (k8s.io/apiserver/pkg/server/healthz and
 * genericapiserver's healthz.go): ping, a post-start hook's, readyz's shutdown check, and the
 * delayed wrapper --livez-grace-period puts around boot-sequence checks on /livez.
 */
import type { HealthCheck } from '../health.js';
import type { LifecycleSignal } from '../lifecycle/signals.js';

/** Always passes. */
export const pingCheck: HealthCheck = { name: 'ping', check: () => undefined };

/** `poststarthook/<name>`: fails with "not finished" until finished() says so. */
export function postStartHookCheck(name: string, finished: () => boolean): HealthCheck {
  return {
    name: `poststarthook/${name}`,
    check: () => {
      if (!finished()) throw new Error('not finished');
    },
  };
}

/** readyz's `shutdown`: fails from the moment a shutdown is initiated. */
export function shutdownCheck(shutdownInitiated: LifecycleSignal): HealthCheck {
  return {
    name: 'shutdown',
    check: () => {
      if (shutdownInitiated.signaled) throw new Error('process is shutting down');
    },
  };
}

/**
 * check as /livez runs it with --livez-grace-period (kube's delayedLivezCheck): passing, whatever
 * its state, until delayMs after it was installed, then the check itself.
 */
export function delayedLivezCheck(check: HealthCheck, delayMs: number, now: () => number = Date.now): HealthCheck {
  const startCheck = now() + delayMs;
  return {
    name: check.name,
    check: () => (now() > startCheck ? check.check() : undefined),
  };
}
