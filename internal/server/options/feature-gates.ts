/**
 * --feature-gates: kube 1.33's gates (internal/features) with the flag's values applied, as
 * kube-apiserver's component registry flag (colonSeparatedMultimapStringString, repeatable).
 */
import { defaultFeatureGates, FeatureGateError, featureGatesHelp, parseFeatureGates, type FeatureGateSet } from '../../features/gates.js';
import { FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

declare module './groups.js' {
  interface FlagGroupOptions {
    /** --feature-gates applied to kube 1.33's defaults (absent: the defaults, internal/features/gates.ts). */
    readonly featureGates?: FeatureGateSet;
  }
}

/**
 * The gates the parsed flags set (kube 1.33's defaults without --feature-gates), for flag groups
 * whose validation depends on a gate (logging's alpha options); throws FlagError as the flag does.
 */
export function featureGatesFromFlags(p: Record<string, unknown>): FeatureGateSet {
  const values = p['feature-gates'] as string[] | undefined;
  if (values === undefined) return defaultFeatureGates;
  try {
    return parseFeatureGates(values);
  } catch (err) {
    if (err instanceof FeatureGateError) throw new FlagError(err.message);
    throw err;
  }
}

/** The --feature-gates flag. */
export const featureGateFlags: FlagGroup<'featureGates'> = {
  repeatable: ['feature-gates'],
  register(y) {
    y.option('feature-gates', { type: 'string', describe: featureGatesHelp() });
  },
  validate(p) {
    if (p['feature-gates'] === undefined) return {};
    return { featureGates: featureGatesFromFlags(p) };
  },
};
