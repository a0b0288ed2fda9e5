/**
 * Server options for tests that walk the whole built-in API of 1.33 (every resource of the API
 * data, alpha and beta included): --runtime-config=api/all=true, plus the feature gates the
 * gated resources need (ClusterTrustBundle, DynamicResourceAllocation, DRADeviceTaints), set
 * directly on the options over kube's defaults.
 */
import { parseFeatureGates } from '../../internal/features/gates.js';
import { resolveRuntimeConfig } from '../../internal/server/resource-config/runtime-config.js';
import type { ServerOptions } from '../../internal/server/options/flags.js';

const gates = parseFeatureGates(['ClusterTrustBundle=true,DynamicResourceAllocation=true,DRADeviceTaints=true']);

/** Options serving every built-in group version and resource. */
export function everyBuiltinAPI(): Partial<ServerOptions> {
  return {
    apiEnablement: resolveRuntimeConfig(new Map([['api/all', 'true']]), { enablePriorityAndFairness: true }),
    featureGates: gates,
  };
}
