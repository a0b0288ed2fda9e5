/**
 * --runtime-config (kube's APIEnablementOptions): which built-in group versions and resources are
 * served, over kube 1.33's defaults (GA on, beta and alpha off). Validated and merged at parse time
 * (internal/server/resource-config/), so a bad key stops the start with kube's message.
 */
import { addRuntimeConfig, resolveRuntimeConfig, type RuntimeConfigMap } from '../resource-config/runtime-config.js';
import type { ResourceConfig } from '../resource-config/resource-config.js';
import { boolFlag, FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

declare module './groups.js' {
  interface FlagGroupOptions {
    /** The enablement of every built-in group version and resource (absent: kube's defaults). */
    readonly apiEnablement?: ResourceConfig;
  }
}

/** kube's help text. */
const helpText =
  'A set of key=value pairs that enable or disable built-in APIs. Supported options are:\n' +
  'v1=true|false for the core API group\n' +
  '<group>/<version>=true|false for a specific API group and version (e.g. apps/v1=true)\n' +
  'api/all=true|false controls all API versions\n' +
  'api/ga=true|false controls all API versions of the form v[0-9]+\n' +
  'api/beta=true|false controls all API versions of the form v[0-9]+beta[0-9]+\n' +
  'api/alpha=true|false controls all API versions of the form v[0-9]+alpha[0-9]+\n' +
  'api/legacy is deprecated, and will be removed in a future version';

/** The --runtime-config flag. */
export const runtimeConfigFlags: FlagGroup<'apiEnablement'> = {
  repeatable: ['runtime-config'],
  register(y) {
    y.option('runtime-config', { type: 'string', describe: helpText });
  },
  validate(p) {
    const given = p['runtime-config'];
    const occurrences = given === undefined ? [] : Array.isArray(given) ? given.map(String) : [String(given)];
    const map: RuntimeConfigMap = new Map();
    for (const o of occurrences) addRuntimeConfig(map, o);
    try {
      return { apiEnablement: resolveRuntimeConfig(map, { enablePriorityAndFairness: boolFlag('enable-priority-and-fairness', p['enable-priority-and-fairness'], true) }) };
    } catch (err) {
      throw new FlagError((err as Error).message);
    }
  },
};
