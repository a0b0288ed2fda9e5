/**
 * The graceful shutdown flags (kube's ServerRunOptions): --shutdown-delay-duration,
 * --shutdown-send-retry-after and --shutdown-watch-termination-grace-period, with kube's help
 * texts, defaults and validation. internal/server/lifecycle/graceful-shutdown.ts does what they say.
 */
import { boolFlag, durationFlag, FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated shutdown options. */
export interface ShutdownOptions {
  /** How long /readyz fails while everything is still served, before the drain starts. */
  readonly delayDurationMs: number;
  /** Keep listening while draining, answering new requests 429 with Retry-After. */
  readonly sendRetryAfter: boolean;
  /** How long active watches may take to end during the drain (0: they are not waited for). */
  readonly watchTerminationGracePeriodMs: number;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly shutdown?: ShutdownOptions;
  }
}

/** kube's defaults. */
export const defaultShutdownOptions: ShutdownOptions = { delayDurationMs: 0, sendRetryAfter: false, watchTerminationGracePeriodMs: 0 };

/** The graceful shutdown flag group. */
export const shutdownFlags: FlagGroup<'shutdown'> = {
  register(y) {
    y.option('shutdown-delay-duration', {
      type: 'string',
      default: '0s',
      describe:
        'Time to delay the termination. During that time the server keeps serving requests normally. The endpoints /healthz and /livez will return success, but /readyz immediately returns failure. Graceful termination starts after this delay has elapsed. This can be used to allow load balancer to stop sending traffic to this server.',
    });
    y.option('shutdown-send-retry-after', {
      type: 'string',
      defaultDescription: 'false',
      describe:
        "If true the HTTP Server will continue listening until all non long running request(s) in flight have been drained, during this window all incoming requests will be rejected with a status code 429 and a 'Retry-After' response header, in addition 'Connection: close' response header is set in order to tear down the TCP connection when idle.",
    });
    y.option('shutdown-watch-termination-grace-period', {
      type: 'string',
      default: '0s',
      describe: 'This option, if set, represents the maximum amount of grace period the apiserver will wait for active watch request(s) to drain during the graceful server shutdown window.',
    });
  },
  validate(p) {
    const delayDurationMs = durationFlag('shutdown-delay-duration', p['shutdown-delay-duration']);
    const sendRetryAfter = boolFlag('shutdown-send-retry-after', p['shutdown-send-retry-after']);
    const watchTerminationGracePeriodMs = durationFlag('shutdown-watch-termination-grace-period', p['shutdown-watch-termination-grace-period']);
    const errors: string[] = [];
    if (delayDurationMs < 0) errors.push('--shutdown-delay-duration can not be negative value');
    if (watchTerminationGracePeriodMs < 0) errors.push('shutdown-watch-termination-grace-period, if provided, can not be a negative value');
    // Several errors read as kube's aggregate: "[a, b]".
    if (errors.length > 0) throw new FlagError(errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`);
    return { shutdown: { delayDurationMs, sendRetryAfter, watchTerminationGracePeriodMs } };
  },
};
