/**
 * PLACEHOLDER (owner: the feature-gates helper, issue 15): kube 1.33's feature gates with their
 * maturity, defaults and locks, and --feature-gates applied to them. Until it lands, only the
 * defaults of the gates below are known.
 */
import type { FeatureGates } from './interface.js';

const placeholderDefaults: Readonly<Record<string, boolean>> = {
  APIResponseCompression: true,
  ClusterTrustBundle: false,
  DRADeviceTaints: false,
  DynamicResourceAllocation: false,
  ConsistentListFromCache: true,
  CRDValidationRatcheting: true,
  MutatingAdmissionPolicy: false,
  RemainingItemCount: true,
  WatchList: true,
};

/** The gates with kube's defaults. */
export const defaultFeatureGates: FeatureGates = {
  enabled(name) {
    const v = placeholderDefaults[name];
    if (v === undefined) throw new Error(`feature gate ${name} is not known`);
    return v;
  },
};
