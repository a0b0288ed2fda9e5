/**
 * The health check flags: --etcd-healthcheck-timeout and --etcd-readycheck-timeout (kube's
 * EtcdOptions: the etcd and etcd-readiness checks' probe timeouts; zero means kube's 2s default,
 * and a negative timeout makes every probe fail at once, as in kube) and --livez-grace-period
 * (kube's ServerRunOptions: how long /livez passes unfinished post-start hooks after the start).
 */
import { durationFlag, FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated health check options. */
export interface HealthCheckOptions {
  readonly etcdHealthcheckTimeoutMs: number;
  readonly etcdReadycheckTimeoutMs: number;
  readonly livezGracePeriodMs: number;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly healthChecks?: HealthCheckOptions;
  }
}

/** kube's defaults. */
export const defaultHealthCheckOptions: HealthCheckOptions = { etcdHealthcheckTimeoutMs: 2000, etcdReadycheckTimeoutMs: 2000, livezGracePeriodMs: 0 };

/** The health check flag group. */
export const healthCheckFlags: FlagGroup<'healthChecks'> = {
  register(y) {
    y.option('etcd-healthcheck-timeout', { type: 'string', default: '2s', describe: 'The timeout to use when checking etcd health.' });
    y.option('etcd-readycheck-timeout', { type: 'string', default: '2s', describe: 'The timeout to use when checking etcd readiness' });
    y.option('livez-grace-period', {
      type: 'string',
      default: '0s',
      describe:
        "This option represents the maximum amount of time it should take for apiserver to complete its startup sequence and become live. From apiserver's start time to when this amount of time has elapsed, /livez will assume that unfinished post-start hooks will complete successfully and therefore return true.",
    });
  },
  validate(p) {
    const etcdHealthcheckTimeoutMs = durationFlag('etcd-healthcheck-timeout', p['etcd-healthcheck-timeout']);
    const etcdReadycheckTimeoutMs = durationFlag('etcd-readycheck-timeout', p['etcd-readycheck-timeout']);
    const livezGracePeriodMs = durationFlag('livez-grace-period', p['livez-grace-period']);
    if (livezGracePeriodMs < 0) throw new FlagError('--livez-grace-period can not be a negative value');
    return { healthChecks: { etcdHealthcheckTimeoutMs, etcdReadycheckTimeoutMs, livezGracePeriodMs } };
  },
};
