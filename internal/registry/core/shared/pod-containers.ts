/**
 * The three container lists of a pod spec (kube's validateContainers, validateInitContainers and
 * validateEphemeralContainers): names unique across the lists, probes and lifecycle hooks where
 * each list allows them, host ports that do not collide, and the fields an ephemeral container
 * may not set.
 */
import { childPath, duplicate, forbidden, indexPath, notFound, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { validateContainerCommon, validateContainerOnlyForPod } from './container-validation.js';
import { validateLifecycle, validateProbe } from './container-probes.js';
import { arrayAt, asObject, objectAt, stringAt, type JsonObject } from './json-value.js';
import { semanticEqual } from './semantic-equal.js';

/** What the lists share: the pod's valid volume names and its grace period (for sleep hooks). */
export interface ContainerListContext {
  readonly volumes: ReadonlySet<string>;
  readonly gracePeriod: number | undefined;
}

/** The fields an ephemeral container may not set, in kube's struct order. */
const ephemeralForbiddenFields = ['ports', 'resources', 'resizePolicy', 'restartPolicy', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'];

/** AccumulateUniqueHostPorts: a protocol/hostIP/hostPort triple may appear once. */
function checkHostPortConflicts(containers: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((raw, ci) => {
    arrayAt(asObject(raw), 'ports').forEach((p, pi) => {
      const port = asObject(p);
      const hostPort = port?.hostPort;
      if (typeof hostPort !== 'number' || hostPort === 0) return;
      const key = `${stringAt(port, 'protocol')}/${stringAt(port, 'hostIP')}/${hostPort}`;
      if (seen.has(key)) errs.push(duplicate(childPath(indexPath(childPath(indexPath(path, ci), 'ports'), pi), 'hostPort'), key));
      seen.add(key);
    });
  });
  return errs;
}

function validateProbesAndLifecycle(c: JsonObject, ctx: ContainerListContext, path: string): FieldError[] {
  return [
    ...validateLifecycle(objectAt(c, 'lifecycle'), ctx.gracePeriod, childPath(path, 'lifecycle')),
    ...validateProbe(objectAt(c, 'livenessProbe'), 'livenessProbe', ctx.gracePeriod, childPath(path, 'livenessProbe')),
    ...validateProbe(objectAt(c, 'readinessProbe'), 'readinessProbe', ctx.gracePeriod, childPath(path, 'readinessProbe')),
    ...validateProbe(objectAt(c, 'startupProbe'), 'startupProbe', ctx.gracePeriod, childPath(path, 'startupProbe')),
  ];
}

/** validateContainers: at least one, unique names, probes and hooks allowed, no restartPolicy. */
export function validateContainers(containers: unknown[], ctx: ContainerListContext, path: string): FieldError[] {
  if (containers.length === 0) return [required(path, '')];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((raw, i) => {
    const c = asObject(raw) ?? {};
    const p = indexPath(path, i);
    errs.push(...validateContainerCommon(c, ctx.volumes, p));
    const name = stringAt(c, 'name');
    if (names.has(name)) errs.push(duplicate(childPath(p, 'name'), name));
    else names.add(name);
    errs.push(...validateProbesAndLifecycle(c, ctx, p));
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) errs.push(forbidden(childPath(p, 'restartPolicy'), 'may not be set for non-init containers'));
  });
  errs.push(...checkHostPortConflicts(containers, path));
  return errs;
}

/** validateInitContainers: names unique with regular containers; probes and hooks only for sidecars (restartPolicy Always). */
export function validateInitContainers(inits: unknown[], regular: unknown[], ctx: ContainerListContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(regular.map((c) => stringAt(asObject(c), 'name')));
  inits.forEach((raw, i) => {
    const c = asObject(raw) ?? {};
    const p = indexPath(path, i);
    errs.push(...validateContainerCommon(c, ctx.volumes, p));
    const restartPolicy = c.restartPolicy;
    const sidecar = restartPolicy === 'Always';
    if (restartPolicy !== undefined && restartPolicy !== null && !sidecar) errs.push(notSupported(childPath(p, 'restartPolicy'), restartPolicy, ['Always']));
    const name = stringAt(c, 'name');
    if (names.has(name)) errs.push(duplicate(childPath(p, 'name'), name));
    else if (name) names.add(name);
    // Init containers run one at a time, so each is checked alone (and kube reports it as index 0).
    errs.push(...checkHostPortConflicts([c], path));
    if (sidecar) errs.push(...validateProbesAndLifecycle(c, ctx, p));
    else {
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (c[f] !== undefined && c[f] !== null) errs.push(forbidden(childPath(p, f), 'may not be set for init containers without restartPolicy=Always'));
      }
    }
  });
  return errs;
}

/** validateEphemeralContainers: names unique across all lists, an existing target, and only the allowed fields. */
export function validateEphemeralContainers(ephemeral: unknown[], regular: unknown[], inits: unknown[], ctx: ContainerListContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const others = new Set([...regular, ...inits].map((c) => stringAt(asObject(c), 'name')));
  const all = new Set(others);
  ephemeral.forEach((raw, i) => {
    const c = asObject(raw) ?? {};
    const p = indexPath(path, i);
    errs.push(...validateContainerCommon(c, ctx.volumes, p), ...validateContainerOnlyForPod(c, p));
    const name = stringAt(c, 'name');
    if (all.has(name)) errs.push(duplicate(childPath(p, 'name'), name));
    else all.add(name);
    const target = stringAt(c, 'targetContainerName');
    if (target && !others.has(target)) errs.push(notFound(childPath(p, 'targetContainerName'), target));
    for (const f of ephemeralForbiddenFields) {
      if (!semanticEqual(c[f], undefined)) errs.push(forbidden(childPath(p, f), 'cannot be set for an Ephemeral Container'));
    }
    arrayAt(c, 'volumeMounts').forEach((m, j) => {
      for (const f of ['subPath', 'subPathExpr']) {
        if (stringAt(asObject(m), f)) errs.push(forbidden(childPath(indexPath(childPath(p, 'volumeMounts'), j), f), 'cannot be set for an Ephemeral Container'));
      }
    });
  });
  return errs;
}
