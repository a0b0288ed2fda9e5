/**
 * Feature gates as the rest of the server reads them.
 */

/** A gate's maturity as component-base prints it: "ALPHA", "BETA", "" (GA) or "DEPRECATED". */
export type PreRelease = 'ALPHA' | 'BETA' | '' | 'DEPRECATED';

/** One gate at kube 1.33: its stage, its default and whether it is locked to that default. */
export interface FeatureSpec {
  readonly preRelease: PreRelease;
  readonly default: boolean;
  readonly lockToDefault: boolean;
}

/** The gates in effect: kube 1.33's defaults with --feature-gates applied. */
export interface FeatureGates {
  /** Whether the named gate is on; throws for a name that is not a known gate (a programming error). */
  enabled(name: string): boolean;
}
