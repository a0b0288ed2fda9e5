/**
 * pods/resize (kube 1.33's podResizeStrategy, InPlacePodVerticalScaling beta and on): a write
 * through this subresource changes the resources and resizePolicy of containers and sidecar
 * (restartable init) containers, and nothing else. Only cpu and memory may change, requests and
 * limits may not be removed, the QoS class may not change, and static, Windows and pod-level
 * resource pods cannot be resized, each with kube's message.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childPath, forbidden, indexPath, invalid, type FieldError } from '../../../validation/field-error.js';
import type { StatusStrategy } from '../../generic/strategy.js';
import { arrayAt, asObject, objectAt, stringAt, type JsonObject } from '../shared/json-value.js';
import { validatePodSpec } from '../shared/pod-spec.js';
import { computePodQOS } from '../shared/qos.js';
import { semanticEqual } from '../shared/semantic-equal.js';
import { mirrorPodAnnotation } from './ephemeral-containers.js';

const resizable = ['cpu', 'memory'] as const;

function containersOf(spec: JsonObject | undefined, key: string): JsonObject[] {
  return arrayAt(spec, key).map((c) => asObject(c) ?? {});
}

function isSidecar(c: JsonObject): boolean {
  return stringAt(c, 'restartPolicy') === 'Always';
}

/** dropNonResizeUpdates: the stored pod with only the request's container resources and resize policies. */
function keepOnlyResizeUpdates(obj: KubeObject, old: KubeObject): void {
  const spec = asObject(obj.spec);
  const next: Record<string, Map<string, JsonObject>> = {};
  for (const key of ['containers', 'initContainers']) next[key] = new Map(containersOf(spec, key).map((c) => [stringAt(c, 'name'), c]));
  const { name, namespace, resourceVersion, uid } = obj.metadata;
  for (const key of Object.keys(obj)) if (key !== 'apiVersion' && key !== 'kind') delete obj[key];
  for (const [key, value] of Object.entries(old)) if (key !== 'apiVersion' && key !== 'kind') obj[key] = structuredClone(value);
  const meta = obj.metadata as Record<string, unknown>;
  for (const [k, v] of Object.entries({ name, namespace, resourceVersion, uid })) {
    if (v === undefined) delete meta[k];
    else meta[k] = v;
  }
  for (const key of ['containers', 'initContainers']) {
    for (const c of containersOf(asObject(obj.spec), key)) {
      const from = next[key]?.get(stringAt(c, 'name'));
      if (!from) continue;
      for (const field of ['resources', 'resizePolicy']) {
        if (from[field] === undefined) delete c[field];
        else c[field] = structuredClone(from[field]);
      }
    }
  }
}

/** resizeRequestsLimitsAllowed: cpu and memory present before stay present. */
function removed(prev: JsonObject | undefined, next: JsonObject | undefined): boolean {
  return resizable.some((r) => prev?.[r] !== undefined && next?.[r] === undefined);
}

/** The container with its cpu and memory requests and limits taken from old (dropCPUMemoryResourcesFromContainer). */
function withOldCPUMemory(c: JsonObject, old: JsonObject): JsonObject {
  const out = structuredClone(c);
  const res: JsonObject = { ...(objectAt(out, 'resources') ?? {}) };
  for (const list of ['requests', 'limits']) {
    const values: JsonObject = { ...(objectAt(res, list) ?? {}) };
    const oldValues = objectAt(objectAt(old, 'resources'), list);
    for (const r of resizable) {
      if (oldValues?.[r] === undefined) delete values[r];
      else values[r] = oldValues[r];
    }
    if (Object.keys(values).length > 0) res[list] = values;
    else delete res[list];
  }
  if (Object.keys(res).length > 0) out.resources = res;
  else delete out.resources;
  // resizePolicy is part of what a resize may change.
  if (old.resizePolicy === undefined) delete out.resizePolicy;
  else out.resizePolicy = structuredClone(old.resizePolicy);
  return out;
}

/** isPodResizeRequestSupported: a running container must report its resources (a node that knows resize). */
function nodeSupportsResize(old: KubeObject): boolean {
  for (const raw of arrayAt(asObject(old.status), 'containerStatuses')) {
    const s = asObject(raw);
    if (objectAt(s, 'state')?.running !== undefined) return s?.resources !== undefined;
  }
  return true;
}

/** The ordering check: same containers, same names, same order. */
function containerOrderErrors(next: JsonObject | undefined, prev: JsonObject | undefined): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['containers', 'initContainers']) {
    const a = containersOf(next, key);
    const b = containersOf(prev, key);
    if (a.length !== b.length) errs.push(forbidden(childPath('spec', key), `${key} may not be added or removed on resize`));
    else b.forEach((c, i) => stringAt(a[i], 'name') !== stringAt(c, 'name') && errs.push(forbidden(childPath(indexPath(childPath('spec', key), i), 'name'), `${key} may not be renamed or reordered on resize`)));
  }
  return errs;
}

/** kube's ValidatePodResize for obj (already reduced to a resize) against old. */
export function validatePodResize(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const oldSpec = asObject(old.spec);
  const errs = validatePodSpec(spec, 'spec', { isPod: true });
  if (spec?.resources !== undefined || oldSpec?.resources !== undefined) return [forbidden('', 'pods with pod-level resources cannot be resized')];
  if (Object.hasOwn(old.metadata.annotations ?? {}, mirrorPodAnnotation)) return [forbidden('', 'static pods cannot be resized')];
  if (stringAt(objectAt(oldSpec, 'os'), 'name') === 'windows') return [forbidden('', 'windows pods cannot be resized')];
  const oldQOS = stringAt(asObject(old.status), 'qosClass') || computePodQOS(oldSpec);
  const newQOS = computePodQOS(spec);
  if (oldQOS !== newQOS) errs.push(invalid('spec', newQOS, 'Pod QOS Class may not change as a result of resizing'));
  if (!nodeSupportsResize(old)) errs.push(forbidden('spec', 'Pod running on node without support for resize'));
  const order = containerOrderErrors(spec, oldSpec);
  if (order.length > 0) return [...errs, ...order];
  for (const key of ['initContainers', 'containers']) {
    const next = containersOf(spec, key);
    containersOf(oldSpec, key).forEach((c, i) => {
      if (key === 'initContainers' && !isSidecar(c)) return;
      const path = childPath(indexPath(childPath('spec', key), i), 'resources');
      const prevRes = objectAt(c, 'resources');
      const nextRes = objectAt(next[i], 'resources');
      if (removed(objectAt(prevRes, 'requests'), objectAt(nextRes, 'requests'))) errs.push(forbidden(childPath(path, 'requests'), 'resource requests cannot be removed'));
      if (removed(objectAt(prevRes, 'limits'), objectAt(nextRes, 'limits'))) errs.push(forbidden(childPath(path, 'limits'), 'resource limits cannot be removed'));
    });
  }
  containersOf(oldSpec, 'containers').forEach((c, i) => {
    const next = containersOf(spec, 'containers')[i] ?? {};
    if (!semanticEqual(withOldCPUMemory(next, c), withOldCPUMemory(c, c))) errs.push(forbidden('spec', 'only cpu and memory resources are mutable'));
  });
  containersOf(oldSpec, 'initContainers').forEach((c, i) => {
    const next = containersOf(spec, 'initContainers')[i] ?? {};
    if (isSidecar(c)) {
      if (!semanticEqual(withOldCPUMemory(next, c), withOldCPUMemory(c, c))) errs.push(forbidden('spec', 'only cpu and memory resources for sidecar containers are mutable'));
    } else if (!semanticEqual(next, c)) {
      errs.push(forbidden('spec', 'resources for non-sidecar init containers are immutable'));
    }
  });
  return errs;
}

/** The pods/resize rules, in the shape the generic subresource store takes. */
export const podResizeStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    keepOnlyResizeUpdates(obj, old);
  },
  validateUpdate(_ctx, obj, old) {
    return validatePodResize(obj, old);
  },
};
