/**
 * PLACEHOLDER (owner: the feature-gates helper, issue 15): --feature-gates. Until it lands, the
 * flag is refused whenever it is given, so nothing is parsed and ignored.
 */
import type { FeatureGates } from '../../features/interface.js';
import { FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

declare module './groups.js' {
  interface FlagGroupOptions {
    /** --feature-gates applied to kube 1.33's defaults (absent: the defaults, internal/features/gates.ts). */
    readonly featureGates?: FeatureGates;
  }
}

/** The --feature-gates flag. */
export const featureGateFlags: FlagGroup<'featureGates'> = {
  register(y) {
    y.option('feature-gates', { type: 'string', describe: 'A set of key=value pairs that describe feature gates for alpha/experimental features.' });
  },
  validate(p) {
    if (p['feature-gates'] !== undefined) throw new FlagError('--feature-gates is not supported yet');
    return {};
  },
};
