/**
 * How kube's service strategy reconciles a Service's linked spec fields before validation:
 * clusterIP and clusterIPs kept in step (NormalizeClusterIPs), allocated values an update left out
 * carried over (patchAllocatedValues), and values a type change no longer needs wiped
 * (dropTypeDependentFields). All functions mutate the new object only.
 */
import { arrayAt, asObject, ensureObject, stringAt, type JsonObject } from './json-value.js';
import { semanticEqual } from './semantic-equal.js';

/** The service type, with kube's default ClusterIP for an absent one. */
export function serviceType(spec: JsonObject | undefined): string {
  return stringAt(spec, 'type') || 'ClusterIP';
}

/** Every type but ExternalName has a cluster IP (or "None"). */
export function needsClusterIP(spec: JsonObject | undefined): boolean {
  return serviceType(spec) !== 'ExternalName';
}

function needsNodePort(spec: JsonObject | undefined): boolean {
  const t = serviceType(spec);
  return t === 'NodePort' || t === 'LoadBalancer';
}

function needsHCNodePort(spec: JsonObject | undefined): boolean {
  return serviceType(spec) === 'LoadBalancer' && stringAt(spec, 'externalTrafficPolicy') === 'Local';
}

function clusterIPs(spec: JsonObject | undefined): string[] {
  return arrayAt(spec, 'clusterIPs').map((v) => (typeof v === 'string' ? v : ''));
}

function setClusterIPs(spec: JsonObject, ips: string[] | undefined): void {
  if (ips === undefined || ips.length === 0) delete spec.clusterIPs;
  else spec.clusterIPs = [...ips];
}

/** NormalizeClusterIPs: derive clusterIPs from clusterIP for old clients, and the reverse cases kube handles. */
export function normalizeClusterIPs(spec: JsonObject, oldSpec: JsonObject | undefined): void {
  const ip = stringAt(spec, 'clusterIP');
  if (oldSpec === undefined) {
    if (ip && clusterIPs(spec).length === 0) spec.clusterIPs = [ip];
    return;
  }
  const oldIP = stringAt(oldSpec, 'clusterIP');
  const oldIPs = clusterIPs(oldSpec);
  // An old client that patched something else and sent no clusterIPs.
  if (oldIPs.length > 0 && clusterIPs(spec).length === 0 && oldIP === ip) setClusterIPs(spec, oldIPs);
  if (oldIP !== ip) {
    const sameIPs = semanticEqual(clusterIPs(spec), oldIPs);
    if (oldIP && !ip && sameIPs) setClusterIPs(spec, undefined);
    if (ip && sameIPs) spec.clusterIPs = [ip];
  }
}

/** patchAllocatedValues: an update that leaves out the cluster IPs or node ports keeps the stored ones. */
export function patchAllocatedValues(spec: JsonObject, oldSpec: JsonObject): void {
  if (needsClusterIP(oldSpec) && needsClusterIP(spec)) {
    if (!stringAt(spec, 'clusterIP') && stringAt(oldSpec, 'clusterIP')) spec.clusterIP = oldSpec.clusterIP;
    if (clusterIPs(spec).length === 0 && clusterIPs(oldSpec).length > 0) setClusterIPs(spec, clusterIPs(oldSpec));
  }
  if (needsNodePort(oldSpec) && needsNodePort(spec)) {
    const nodePortOf = (p: unknown): number => {
      const n = asObject(p)?.nodePort;
      return typeof n === 'number' ? n : 0;
    };
    const used = new Set(arrayAt(spec, 'ports').map(nodePortOf).filter((n) => n !== 0));
    const byName = new Map<string, number>();
    for (const p of arrayAt(oldSpec, 'ports')) byName.set(stringAt(asObject(p), 'name'), nodePortOf(p));
    for (const p of arrayAt(spec, 'ports')) {
      const port = asObject(p);
      if (!port || nodePortOf(port) !== 0) continue;
      const oldVal = byName.get(stringAt(port, 'name')) ?? 0;
      if (oldVal !== 0 && !used.has(oldVal)) port.nodePort = oldVal;
    }
  }
  if (needsHCNodePort(oldSpec) && needsHCNodePort(spec) && !spec.healthCheckNodePort && oldSpec.healthCheckNodePort) {
    spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
  }
}

/** dropTypeDependentFields: wipe what a type change made pointless, when the client left it unchanged. */
export function dropTypeDependentFields(obj: JsonObject, spec: JsonObject, oldSpec: JsonObject): void {
  if (needsClusterIP(oldSpec) && !needsClusterIP(spec)) {
    if (stringAt(spec, 'clusterIP') === stringAt(oldSpec, 'clusterIP') && semanticEqual(clusterIPs(spec), clusterIPs(oldSpec))) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (semanticEqual(spec.ipFamilies, oldSpec.ipFamilies)) delete spec.ipFamilies;
    if (semanticEqual(spec.ipFamilyPolicy, oldSpec.ipFamilyPolicy)) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(oldSpec) && !needsNodePort(spec)) {
    const ports = (s: JsonObject): unknown[] => arrayAt(s, 'ports').map((p) => asObject(p)?.nodePort ?? 0);
    if (semanticEqual(ports(spec), ports(oldSpec))) for (const p of arrayAt(spec, 'ports')) if (asObject(p)) delete (p as JsonObject).nodePort;
  }
  if (needsHCNodePort(oldSpec) && !needsHCNodePort(spec) && spec.healthCheckNodePort === oldSpec.healthCheckNodePort) delete spec.healthCheckNodePort;
  const wasLB = serviceType(oldSpec) === 'LoadBalancer';
  const isLB = serviceType(spec) === 'LoadBalancer';
  if (wasLB && !isLB) {
    if (spec.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts === oldSpec.allocateLoadBalancerNodePorts) {
      delete spec.allocateLoadBalancerNodePorts;
    }
    if (spec.loadBalancerClass !== undefined && spec.loadBalancerClass === oldSpec.loadBalancerClass) delete spec.loadBalancerClass;
  }
  const externallyAccessible = (s: JsonObject): boolean => needsNodePort(s) || arrayAt(s, 'externalIPs').length > 0;
  if (externallyAccessible(oldSpec) && !externallyAccessible(spec) && spec.externalTrafficPolicy === oldSpec.externalTrafficPolicy) {
    delete spec.externalTrafficPolicy;
  }
  // The load balancer controller reads an empty status as "nothing to provision".
  if (!isLB) ensureObject(obj, 'status').loadBalancer = {};
}
