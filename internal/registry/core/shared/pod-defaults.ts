/**
 * kube's defaulting of pod specs (SetDefaults_PodSpec with everything generated beneath it) and
 * of Pods (SetDefaults_Pod on top). Workload templates (deployments, jobs, replica sets, ...) get
 * only the spec defaults: enableServiceLinks, requests copied from limits and host-network host
 * ports materialise on Pods alone, as in kube.
 */
import { defaultContainer } from './container-defaults.js';
import { childObject, isEmptyString, isNil, isZeroNumber, objectsIn } from './defaults-values.js';
import { defaultResourceList } from './resource-list-defaults.js';
import { defaultVolume } from './volume-defaults.js';

/** v1.DefaultTerminationGracePeriodSeconds. */
export const defaultTerminationGracePeriodSeconds = 30;

/** v1.DefaultSchedulerName. */
export const defaultSchedulerName = 'default-scheduler';

/**
 * Defaults a pod spec in place: dnsPolicy ClusterFirst, restartPolicy Always, an empty
 * securityContext, terminationGracePeriodSeconds 30, schedulerName default-scheduler, and every
 * volume and container (regular, init, ephemeral) as kube's generated defaulters do.
 * Mutates spec; idempotent; never throws on mistyped fields (they are left for validation).
 */
export function defaultPodSpec(spec: Record<string, unknown>): void {
  if (isEmptyString(spec.dnsPolicy)) spec.dnsPolicy = 'ClusterFirst';
  if (isEmptyString(spec.restartPolicy)) spec.restartPolicy = 'Always';
  if (isNil(spec.securityContext)) spec.securityContext = {};
  if (isNil(spec.terminationGracePeriodSeconds)) spec.terminationGracePeriodSeconds = defaultTerminationGracePeriodSeconds;
  if (isEmptyString(spec.schedulerName)) spec.schedulerName = defaultSchedulerName;
  for (const volume of objectsIn(spec, 'volumes')) defaultVolume(volume);
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of objectsIn(spec, key)) defaultContainer(c);
  }
  defaultResourceList(spec.overhead);
  const podResources = childObject(spec, 'resources');
  defaultResourceList(podResources?.limits);
  defaultResourceList(podResources?.requests);
}

/**
 * Defaults a PodTemplateSpec in place (a workload's spec.template): its spec, created when
 * absent because kube's template spec is a struct that is always there. Mutates template.
 */
export function defaultPodTemplateSpec(template: Record<string, unknown>): void {
  if (isNil(template.spec)) template.spec = {};
  const spec = childObject(template, 'spec');
  if (spec) defaultPodSpec(spec);
}

/** SetDefaults_Pod: requests default to limits, per resource a container names only a limit for. */
function defaultRequestsFromLimits(c: Record<string, unknown>): void {
  const resources = childObject(c, 'resources');
  const limits = childObject(resources, 'limits');
  if (!resources || !limits) return;
  if (isNil(resources.requests)) resources.requests = {};
  const requests = childObject(resources, 'requests');
  if (!requests) return;
  for (const key of Object.keys(limits).sort()) {
    if (!(key in requests)) requests[key] = structuredClone(limits[key]);
  }
}

/** With host networking every container port is also a host port. */
function defaultHostNetworkPorts(containers: Record<string, unknown>[]): void {
  for (const c of containers) {
    for (const port of objectsIn(c, 'ports')) {
      // A zero containerPort would leave hostPort at zero, which Go then omits.
      if (isZeroNumber(port.hostPort) && typeof port.containerPort === 'number' && port.containerPort !== 0) port.hostPort = port.containerPort;
    }
  }
}

/**
 * Defaults a Pod in place (SetObjectDefaults_Pod): the Pod-only defaults, then defaultPodSpec.
 * The spec is created when absent, as kube's Pod.Spec is a struct. Mutates pod; idempotent.
 */
export function defaultPod(pod: Record<string, unknown>): void {
  if (isNil(pod.spec)) pod.spec = {};
  const spec = childObject(pod, 'spec');
  if (!spec) return;
  for (const key of ['containers', 'initContainers']) {
    for (const c of objectsIn(spec, key)) defaultRequestsFromLimits(c);
  }
  if (isNil(spec.enableServiceLinks)) spec.enableServiceLinks = true;
  if (spec.hostNetwork === true) {
    defaultHostNetworkPorts(objectsIn(spec, 'containers'));
    defaultHostNetworkPorts(objectsIn(spec, 'initContainers'));
  }
  defaultPodSpec(spec);
}
