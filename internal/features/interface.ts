/**
 * Feature gates as the rest of the server reads them.
 */

/** The gates in effect: kube 1.33's defaults with --feature-gates applied. */
export interface FeatureGates {
  /** Whether the named gate is on; throws for a name that is not a known gate (a programming error). */
  enabled(name: string): boolean;
}
