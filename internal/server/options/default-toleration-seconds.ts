/**
 * --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds (kube's
 * DefaultTolerationSeconds plugin flags, default 300): the tolerationSeconds of the
 * not-ready:NoExecute and unreachable:NoExecute tolerations that plugin adds to pods. Used only
 * while the DefaultTolerationSeconds admission plugin is enabled (it is by default).
 */
import { intFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated toleration seconds. */
export interface DefaultTolerationSecondsOptions {
  readonly notReadySeconds: number;
  readonly unreachableSeconds: number;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly defaultTolerationSeconds?: DefaultTolerationSecondsOptions;
  }
}

/** kube's defaults: five minutes each. */
export const defaultTolerationSecondsOptions: DefaultTolerationSecondsOptions = { notReadySeconds: 300, unreachableSeconds: 300 };

/** The flag group. */
export const defaultTolerationSecondsFlags: FlagGroup<'defaultTolerationSeconds'> = {
  register(y) {
    y.option('default-not-ready-toleration-seconds', {
      type: 'string',
      default: '300',
      describe:
        'Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every pod that does not already have such a toleration.',
    });
    y.option('default-unreachable-toleration-seconds', {
      type: 'string',
      default: '300',
      describe:
        'Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to every pod that does not already have such a toleration.',
    });
  },
  validate(p) {
    const notReady = p['default-not-ready-toleration-seconds'];
    const unreachable = p['default-unreachable-toleration-seconds'];
    return {
      defaultTolerationSeconds: {
        notReadySeconds: notReady === undefined ? defaultTolerationSecondsOptions.notReadySeconds : intFlag('default-not-ready-toleration-seconds', notReady),
        unreachableSeconds: unreachable === undefined ? defaultTolerationSecondsOptions.unreachableSeconds : intFlag('default-unreachable-toleration-seconds', unreachable),
      },
    };
  },
};
