/**
 * The pod spec checks that matter before full schema validation (kube's ValidatePodSpec subset),
 * shared by pods and by the pod templates of workloads: containers present, container names
 * DNS-1123 labels unique across init and regular containers, images present, ports and
 * resources well formed, restartPolicy and activeDeadlineSeconds in range.
 */
import { childPath, duplicate, indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Label } from '../../../validation/label-values.js';
import { validateResourceRequirements } from './container-resources.js';
import { arrayAt, asObject, objectAt, stringAt, type JsonObject } from './json-value.js';
import { inclusiveRangeError, isValidPortName, isValidPortNum, validateProtocol } from './ports.js';

/** How a spec is checked: a pod's own spec is stricter than a template's. */
export interface PodSpecOptions {
  /** True for a Pod (not a template): image whitespace is refused. */
  readonly isPod: boolean;
}

const maxInt32 = 2147483647;
const restartPolicies = ['Always', 'OnFailure', 'Never'];

function validateContainerPorts(ports: unknown[], path: string): FieldError[] {
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
    errs.push(...validateProtocol(port?.protocol, childPath(p, 'protocol')));
  });
  return errs;
}

/** validateContainerCommon: name, image, ports and resources of one container. */
function validateContainer(c: JsonObject | undefined, path: string, opts: PodSpecOptions): FieldError[] {
  const errs: FieldError[] = [];
  const name = stringAt(c, 'name');
  if (!name) errs.push(required(childPath(path, 'name'), ''));
  else for (const m of isDNS1123Label(name)) errs.push(invalid(childPath(path, 'name'), name, m));
  const image = stringAt(c, 'image');
  if (!image) errs.push(required(childPath(path, 'image'), ''));
  else if (opts.isPod && image.trim() !== image) errs.push(invalid(childPath(path, 'image'), image, 'must not have leading or trailing whitespace'));
  errs.push(...validateContainerPorts(arrayAt(c, 'ports'), childPath(path, 'ports')));
  errs.push(...validateResourceRequirements(objectAt(c, 'resources'), childPath(path, 'resources')));
  return errs;
}

/** Validates a pod spec at path (e.g. `spec` or `spec.template.spec`). Never mutates. */
export function validatePodSpec(spec: JsonObject | undefined, path: string, opts: PodSpecOptions): FieldError[] {
  const errs: FieldError[] = [];
  const containers = arrayAt(spec, 'containers');
  const containersPath = childPath(path, 'containers');
  const names = new Set<string>();
  if (containers.length === 0) errs.push(required(containersPath, ''));
  containers.forEach((raw, i) => {
    const c = asObject(raw);
    const p = indexPath(containersPath, i);
    errs.push(...validateContainer(c, p, opts));
    const name = stringAt(c, 'name');
    if (names.has(name)) errs.push(duplicate(childPath(p, 'name'), name));
    else names.add(name);
  });
  const initPath = childPath(path, 'initContainers');
  arrayAt(spec, 'initContainers').forEach((raw, i) => {
    const c = asObject(raw);
    const p = indexPath(initPath, i);
    errs.push(...validateContainer(c, p, opts));
    // Init container names must differ from regular containers' and from each other.
    const name = stringAt(c, 'name');
    if (names.has(name)) errs.push(duplicate(childPath(p, 'name'), name));
    else if (name) names.add(name);
  });
  const restartPolicy = spec?.restartPolicy;
  if (restartPolicy !== undefined && restartPolicy !== null && restartPolicy !== '' && !restartPolicies.includes(restartPolicy as string)) {
    errs.push(notSupported(childPath(path, 'restartPolicy'), restartPolicy, restartPolicies));
  }
  const ads = spec?.activeDeadlineSeconds;
  if (ads !== undefined && ads !== null && (typeof ads !== 'number' || ads < 1 || ads > maxInt32)) {
    errs.push(invalid(childPath(path, 'activeDeadlineSeconds'), ads, inclusiveRangeError(1, maxInt32)));
  }
  return errs;
}
