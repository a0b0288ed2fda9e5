/**
 * --feature-gates: kube 1.33's gates (internal/features) with the flag's values applied, as
 * kube-apiserver's component registry flag (colonSeparatedMultimapStringString, repeatable).
 */
import { FeatureGateError, featureGatesHelp, parseFeatureGates, type FeatureGateSet } from '../../features/gates.js';
import { FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

declare module './groups.js' {
  interface FlagGroupOptions {
    /** --feature-gates applied to kube 1.33's defaults (absent: the defaults, internal/features/gates.ts). */
    readonly featureGates?: FeatureGateSet;
  }
}

/** The --feature-gates flag. */
export const featureGateFlags: FlagGroup<'featureGates'> = {
  repeatable: ['feature-gates'],
  register(y) {
    y.option('feature-gates', { type: 'string', describe: featureGatesHelp() });
  },
  validate(p) {
    const values = p['feature-gates'] as string[] | undefined;
    if (values === undefined) return {};
    try {
      return { featureGates: parseFeatureGates(values) };
    } catch (err) {
      if (err instanceof FeatureGateError) throw new FlagError(err.message);
      throw err;
    }
  },
};
