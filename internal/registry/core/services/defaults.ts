/**
 * kube's defaulting of core/v1 Services (SetDefaults_Service plus the generated port defaults):
 * type ClusterIP, sessionAffinity None (and a 3-hour ClientIP timeout), port protocol TCP and
 * targetPort = port, the traffic policies, allocateLoadBalancerNodePorts and the VIP ipMode of
 * load balancer ingress. Cluster IPs, ipFamilies and ipFamilyPolicy are not decode-time defaults:
 * the store's allocation sets them (see allocation.ts).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childObject, isEmptyString, isNil, objectsIn, structAt } from '../shared/defaults-values.js';

/** v1.DefaultClientIPServiceAffinitySeconds: three hours. */
export const defaultClientIPServiceAffinitySeconds = 10800;

/** ExternallyAccessible: NodePort and LoadBalancer services, and ClusterIP services with external IPs. */
function externallyAccessible(spec: Record<string, unknown>): boolean {
  const externalIPs = spec.externalIPs;
  return (
    spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && Array.isArray(externalIPs) && externalIPs.length > 0)
  );
}

/** Defaults a decoded Service in place. Mutates obj; idempotent. */
export function defaultService(obj: KubeObject): void {
  const spec = structAt(obj as Record<string, unknown>, 'spec');
  if (!spec) return;
  if (isEmptyString(spec.sessionAffinity)) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const timeout = childObject(childObject(spec, 'sessionAffinityConfig'), 'clientIP')?.timeoutSeconds;
    if (isNil(timeout)) spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: defaultClientIPServiceAffinitySeconds } };
  }
  if (isEmptyString(spec.type)) spec.type = 'ClusterIP';
  for (const port of objectsIn(spec, 'ports')) {
    if (isEmptyString(port.protocol)) port.protocol = 'TCP';
    // IntOrString's zero values (0 and "") both mean "same as port".
    if (isNil(port.targetPort) || port.targetPort === 0 || port.targetPort === '') port.targetPort = typeof port.port === 'number' ? port.port : 0;
  }
  if (externallyAccessible(spec) && isEmptyString(spec.externalTrafficPolicy)) spec.externalTrafficPolicy = 'Cluster';
  if (isNil(spec.internalTrafficPolicy) && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type as string)) {
    spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer') {
    if (isNil(spec.allocateLoadBalancerNodePorts)) spec.allocateLoadBalancerNodePorts = true;
    const status = childObject(obj as Record<string, unknown>, 'status');
    for (const ing of objectsIn(childObject(status, 'loadBalancer'), 'ingress')) {
      if (!isEmptyString(ing.ip) && isNil(ing.ipMode)) ing.ipMode = 'VIP';
    }
  }
}
