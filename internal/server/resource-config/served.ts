/**
 * The cut between what Capstan can serve and what it serves: the registrations of the enabled
 * resources (--runtime-config over kube's defaults, then their feature gates), made before the
 * installer is built, so routes, discovery, OpenAPI and the local APIServices all follow.
 */
import type { FeatureGates } from '../../features/interface.js';
import type { Logger } from '../../observability/logging.js';
import type { ResourceRegistration } from '../../registry/registration.js';
import { missingGate } from './feature-gated.js';
import { groupVersionString, type ResourceConfig } from './resource-config.js';

/**
 * The resources Capstan itself cannot run without, whichever version serves them: each must stay
 * enabled in at least one version (kube would start and then fail in its own post-start hooks).
 */
const requiredResources: ReadonlyArray<{ readonly group: string; readonly resource: string; readonly why: string }> = [
  { group: '', resource: 'namespaces', why: 'the namespace lifecycle and the system namespaces' },
  { group: '', resource: 'services', why: 'the default/kubernetes Service' },
  { group: '', resource: 'endpoints', why: 'the default/kubernetes Endpoints' },
  { group: 'discovery.k8s.io', resource: 'endpointslices', why: 'the default/kubernetes EndpointSlice' },
  { group: 'coordination.k8s.io', resource: 'leases', why: 'the API server identity lease' },
  { group: 'apiregistration.k8s.io', resource: 'apiservices', why: 'the aggregator' },
];

/**
 * The registrations to install. Logs kube's warning for each resource left out only for its gate.
 * Throws when a resource Capstan needs is left out in every version.
 */
export function servedRegistrations(all: readonly ResourceRegistration[], config: ResourceConfig, gates: FeatureGates, log: Logger): ResourceRegistration[] {
  const served = all.filter((r) => {
    if (!config.resourceEnabled(r.group, r.version, r.resource)) return false;
    const gate = missingGate(r.group, r.resource, gates);
    if (gate === undefined) return true;
    log.warn(`${groupVersionString(r)}, Resource=${r.resource} is disabled because the ${gate} feature is disabled`);
    return false;
  });
  for (const req of requiredResources) {
    if (served.some((r) => r.group === req.group && r.resource === req.resource)) continue;
    const versions = all.filter((r) => r.group === req.group && r.resource === req.resource).map((r) => groupVersionString(r));
    throw new Error(`--runtime-config: ${req.resource} (${versions.join(', ')}) cannot be disabled: Capstan needs it for ${req.why}`);
  }
  return served;
}
