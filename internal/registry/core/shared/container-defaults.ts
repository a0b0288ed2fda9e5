/**
 * kube's defaulting of one container (SetDefaults_Container and the defaulters generated for
 * what a container holds): pull policy from the image tag, termination message path and policy,
 * port protocols, env fieldRef apiVersion, resource quantities, probes and lifecycle handlers.
 * Used for regular, init and ephemeral containers alike.
 */
import { childObject, isEmptyString, isNil, isZeroNumber, objectsIn } from './defaults-values.js';
import { defaultImagePullPolicy } from './image-reference.js';
import { defaultResourceList } from './resource-list-defaults.js';

/** v1.TerminationMessagePathDefault. */
export const defaultTerminationMessagePath = '/dev/termination-log';

/** SetDefaults_ObjectFieldSelector: a fieldRef without apiVersion means v1. Mutates fieldRef. */
export function defaultObjectFieldSelector(fieldRef: Record<string, unknown> | undefined): void {
  if (fieldRef && isEmptyString(fieldRef.apiVersion)) fieldRef.apiVersion = 'v1';
}

/** SetDefaults_HTTPGetAction: path "/" and scheme HTTP. Mutates action. */
export function defaultHTTPGetAction(action: Record<string, unknown> | undefined): void {
  if (!action) return;
  if (isEmptyString(action.path)) action.path = '/';
  if (isEmptyString(action.scheme)) action.scheme = 'HTTP';
}

/** SetDefaults_Probe plus its handlers: timeouts, period and thresholds, httpGet, grpc service "". */
function defaultProbe(probe: Record<string, unknown> | undefined): void {
  if (!probe) return;
  if (isZeroNumber(probe.timeoutSeconds)) probe.timeoutSeconds = 1;
  if (isZeroNumber(probe.periodSeconds)) probe.periodSeconds = 10;
  if (isZeroNumber(probe.successThreshold)) probe.successThreshold = 1;
  if (isZeroNumber(probe.failureThreshold)) probe.failureThreshold = 3;
  defaultHTTPGetAction(childObject(probe, 'httpGet'));
  const grpc = childObject(probe, 'grpc');
  if (grpc && isNil(grpc.service)) grpc.service = '';
}

/** Defaults container c in place (regular, init or ephemeral). Mutates c; idempotent. */
export function defaultContainer(c: Record<string, unknown>): void {
  if (isEmptyString(c.imagePullPolicy)) c.imagePullPolicy = defaultImagePullPolicy(typeof c.image === 'string' ? c.image : '');
  if (isEmptyString(c.terminationMessagePath)) c.terminationMessagePath = defaultTerminationMessagePath;
  if (isEmptyString(c.terminationMessagePolicy)) c.terminationMessagePolicy = 'File';
  for (const port of objectsIn(c, 'ports')) {
    if (isEmptyString(port.protocol)) port.protocol = 'TCP';
  }
  for (const env of objectsIn(c, 'env')) defaultObjectFieldSelector(childObject(childObject(env, 'valueFrom'), 'fieldRef'));
  // ResourceRequirements is a Go value, not a pointer: kube always writes it, empty as {}.
  if (c.resources === undefined || c.resources === null) c.resources = {};
  const resources = childObject(c, 'resources');
  defaultResourceList(resources?.limits);
  defaultResourceList(resources?.requests);
  for (const key of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(childObject(c, key));
  const lifecycle = childObject(c, 'lifecycle');
  for (const key of ['postStart', 'preStop']) defaultHTTPGetAction(childObject(childObject(lifecycle, key), 'httpGet'));
}
