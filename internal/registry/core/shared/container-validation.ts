/**
 * One container (kube's validateContainerCommon, shared by regular, init and ephemeral
 * containers): name, image, termination message policy, ports, env, volume mounts, pull policy
 * and resources. Checks of values kube's defaulting always fills (protocol, pull policy, message
 * policy) apply only when the value is present.
 */
import { childPath, duplicate, forbidden, indexPath, invalid, notFound, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Label } from '../../../validation/label-values.js';
import { validateResourceRequirements } from './container-resources.js';
import { validateEnv, validateEnvFrom } from './container-env.js';
import { arrayAt, asObject, objectAt, stringAt, type JsonObject } from './json-value.js';
import { isValidPortName, isValidPortNum, supportedPortProtocols } from './ports.js';
import { validateLocalDescendingPath } from './volume-validation.js';

const pullPolicies = ['Always', 'IfNotPresent', 'Never'];
const messagePolicies = ['File', 'FallbackToLogsOnError'];
const mountPropagations = ['Bidirectional', 'HostToContainer', 'None'];
const recursiveReadOnlyModes = ['Disabled', 'Enabled', 'IfPossible'];

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/** validateContainerPorts: unique IANA names, port numbers in range, known protocols. */
export function validateContainerPorts(ports: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((raw, i) => {
    const port = asObject(raw);
    const p = indexPath(path, i);
    const name = stringAt(port, 'name');
    if (name) {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) for (const m of msgs) errs.push(invalid(childPath(p, 'name'), name, m));
      else if (names.has(name)) errs.push(duplicate(childPath(p, 'name'), name));
      else names.add(name);
    }
    const containerPort = port?.containerPort;
    if (containerPort === undefined || containerPort === null || containerPort === 0) errs.push(required(childPath(p, 'containerPort'), ''));
    else for (const m of isValidPortNum(containerPort)) errs.push(invalid(childPath(p, 'containerPort'), containerPort, m));
    const hostPort = port?.hostPort;
    if (hostPort !== undefined && hostPort !== null && hostPort !== 0) {
      for (const m of isValidPortNum(hostPort)) errs.push(invalid(childPath(p, 'hostPort'), hostPort, m));
    }
    const protocol = port?.protocol;
    if (present(protocol) && !supportedPortProtocols.includes(protocol as string)) errs.push(notSupported(childPath(p, 'protocol'), protocol, supportedPortProtocols));
  });
  return errs;
}

/** ValidateVolumeMounts (without volumeDevices); some paths are reported at the list, as kube does. */
function validateVolumeMounts(c: JsonObject, volumes: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mountPaths = new Set<string>();
  const privileged = objectAt(c, 'securityContext')?.privileged === true;
  arrayAt(c, 'volumeMounts').forEach((raw, i) => {
    const m = asObject(raw) ?? {};
    const p = indexPath(path, i);
    const name = stringAt(m, 'name');
    const mountPath = stringAt(m, 'mountPath');
    if (!name) errs.push(required(childPath(p, 'name'), ''));
    if (!volumes.has(name)) errs.push(notFound(childPath(p, 'name'), name));
    if (!mountPath) errs.push(required(childPath(p, 'mountPath'), ''));
    if (mountPaths.has(mountPath)) errs.push(invalid(childPath(p, 'mountPath'), mountPath, 'must be unique'));
    mountPaths.add(mountPath);
    const subPath = stringAt(m, 'subPath');
    const subPathExpr = stringAt(m, 'subPathExpr');
    if (subPath) errs.push(...validateLocalDescendingPath(subPath, childPath(path, 'subPath')));
    if (subPathExpr) {
      if (subPath) errs.push(invalid(childPath(p, 'subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(subPathExpr, childPath(path, 'subPathExpr')));
    }
    const propagation = m.mountPropagation;
    if (present(propagation)) {
      const pp = childPath(path, 'mountPropagation');
      if (!mountPropagations.includes(propagation as string)) errs.push(notSupported(pp, propagation, mountPropagations));
      if (propagation === 'Bidirectional' && !privileged) errs.push(forbidden(pp, 'Bidirectional mount propagation is available only to privileged containers'));
    }
    const rro = m.recursiveReadOnly;
    if (present(rro) && rro !== 'Disabled') {
      const rp = childPath(path, 'recursiveReadOnly');
      if (!recursiveReadOnlyModes.includes(rro as string)) errs.push(notSupported(rp, rro, recursiveReadOnlyModes));
      else {
        if (m.readOnly !== true) errs.push(forbidden(rp, 'may only be specified when readOnly is true'));
        if (present(propagation) && propagation !== 'None') errs.push(forbidden(rp, 'may only be specified when mountPropagation is None or not specified'));
      }
    }
  });
  return errs;
}

/** validateContainerCommon for container c at path; volumes are the names of the pod's valid volumes. */
export function validateContainerCommon(c: JsonObject, volumes: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = stringAt(c, 'name');
  if (!name) errs.push(required(childPath(path, 'name'), ''));
  else for (const m of isDNS1123Label(name)) errs.push(invalid(childPath(path, 'name'), name, m));
  if (!stringAt(c, 'image')) errs.push(required(childPath(path, 'image'), ''));
  const messagePolicy = c.terminationMessagePolicy;
  if (present(messagePolicy) && !messagePolicies.includes(messagePolicy as string)) {
    errs.push(notSupported(childPath(path, 'terminationMessagePolicy'), messagePolicy, messagePolicies));
  }
  errs.push(...validateContainerPorts(arrayAt(c, 'ports'), childPath(path, 'ports')));
  errs.push(...validateEnv(arrayAt(c, 'env'), childPath(path, 'env')));
  errs.push(...validateEnvFrom(arrayAt(c, 'envFrom'), childPath(path, 'envFrom')));
  errs.push(...validateVolumeMounts(c, volumes, childPath(path, 'volumeMounts')));
  const pullPolicy = c.imagePullPolicy;
  if (present(pullPolicy) && !pullPolicies.includes(pullPolicy as string)) errs.push(notSupported(childPath(path, 'imagePullPolicy'), pullPolicy, pullPolicies));
  errs.push(...validateResourceRequirements(objectAt(c, 'resources'), childPath(path, 'resources')));
  return errs;
}

/** validateContainerOnlyForPod: a Pod's images may not carry surrounding whitespace (templates may). */
export function validateContainerOnlyForPod(c: JsonObject, path: string): FieldError[] {
  const image = stringAt(c, 'image');
  return image.trim() !== image ? [invalid(childPath(path, 'image'), image, 'must not have leading or trailing whitespace')] : [];
}
