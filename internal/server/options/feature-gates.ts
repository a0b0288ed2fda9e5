/**
 * --feature-gates: kube 1.33's gates (internal/features) with the flag's values applied, as
 * kube-apiserver's component registry flag (colonSeparatedMultimapStringString, repeatable).
 */
import { defaultFeatureGates, FeatureGateError, featureGatesHelp, parseFeatureGates, type FeatureGateSet } from '../../features/gates.js';
import { refusedGateValues } from '../../features/effect.js';
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
  let gates: FeatureGateSet;
  try {
    gates = parseFeatureGates(values);
  } catch (err) {
    if (err instanceof FeatureGateError) throw new FlagError(err.message);
    throw err;
  }
  const refused = refusedGateValues(namedDirectly(values, gates));
  if (refused.length > 0) throw new FlagError(refused.join('; '));
  return gates;
}

/** The gates the flag's pairs name themselves (not through AllAlpha/AllBeta), with their values (the last one given). */
function namedDirectly(values: readonly string[], gates: FeatureGateSet): Map<string, boolean> {
  const named = new Map<string, boolean>();
  for (const value of values) {
    for (const pair of value.split(',')) {
      const name = pair.slice(pair.indexOf(':') + 1, pair.includes('=') ? pair.indexOf('=') : undefined).trim();
      if (name !== '' && name !== 'AllAlpha' && name !== 'AllBeta') named.set(name, gates.enabled(name));
    }
  }
  return named;
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
