/**
 * Resources kube 1.33 installs only while their feature gate is on, even when --runtime-config
 * enables their version (each REST storage provider checks the gate and logs a warning otherwise).
 */
import type { FeatureGates } from '../../features/interface.js';

/** group/resource -> the gate it needs, in every version it is served in. */
const gateOf: Readonly<Record<string, string>> = {
  'certificates.k8s.io/clustertrustbundles': 'ClusterTrustBundle',
  'resource.k8s.io/deviceclasses': 'DynamicResourceAllocation',
  'resource.k8s.io/resourceclaims': 'DynamicResourceAllocation',
  'resource.k8s.io/resourceclaimtemplates': 'DynamicResourceAllocation',
  'resource.k8s.io/resourceslices': 'DynamicResourceAllocation',
  'resource.k8s.io/devicetaintrules': 'DRADeviceTaints',
};

/** The gate a resource needs and that is off, or undefined when it may be served. */
export function missingGate(group: string, resource: string, gates: FeatureGates): string | undefined {
  const gate = gateOf[`${group}/${resource}`];
  return gate !== undefined && !gates.enabled(gate) ? gate : undefined;
}
